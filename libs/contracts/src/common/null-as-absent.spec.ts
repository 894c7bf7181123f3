import 'reflect-metadata';
import { CreateApiKeyRequest, CreateLabelRequest, CreateOrderRequest } from '../index';
import { validLabel } from '@consign/testing/fixtures';
import { validateContract } from './validation';
import { nullAsAbsent } from './null-as-absent';

function validated<T extends object>(cls: new () => T, plain: unknown): T {
  const result = validateContract(cls, plain);
  if (!result.ok) throw new Error(result.errors.join('; '));
  return result.value;
}

describe('nullAsAbsent', () => {
  it('leaves out optional properties given as null, in nested objects and arrays too', () => {
    const label = validLabel() as { shipping_address: object; items: object[] };
    const plain = {
      ...label,
      expect_pickup_time: null,
      metadata: null,
      shipping_address: { ...label.shipping_address, address2: null, zip_code: null },
      items: label.items.map((item) => ({ ...item, length: null })),
    };
    const request = nullAsAbsent(CreateLabelRequest, validated(CreateLabelRequest, plain));
    expect(request).not.toHaveProperty('expect_pickup_time');
    expect(request).not.toHaveProperty('metadata');
    expect(request.shipping_address).not.toHaveProperty('address2');
    expect(request.shipping_address).not.toHaveProperty('zip_code');
    expect(request.items[0]).not.toHaveProperty('length');
    expect(request.shipping_address.city).toBe((label.shipping_address as { city: string }).city);
  });

  it('leaves out a @ValidateIf property given as null where its rules were skipped', () => {
    const request = validated(CreateApiKeyRequest, { role: 'admin', merchant_id: null });
    expect(nullAsAbsent(CreateApiKeyRequest, request)).toEqual({ role: 'admin' });
  });

  it('keeps what is not null, and a value without the properties as it is', () => {
    const order = { service: { warehouse_code: 'WH-DE-01' } };
    expect(nullAsAbsent(CreateOrderRequest, order)).toEqual(order);
    expect(nullAsAbsent(CreateOrderRequest, {})).toEqual({});
  });
});
