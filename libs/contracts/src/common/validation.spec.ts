import 'reflect-metadata';
import {
  ArrayMaxSize,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { NestedType } from './contract-metadata';
import { IsCountryCode } from './formats';
import { flattenValidationErrors, validateContract, validationMessage } from './validation';

class Line {
  @IsInt()
  quantity!: number;
}

class Limited {
  @IsInt()
  @Min(1)
  @Max(100)
  size!: number;

  @IsOptional()
  @IsString()
  @MaxLength(3)
  code?: string;

  @IsOptional()
  @IsString({ each: true })
  @ArrayMaxSize(2)
  tags?: string[];

  @IsOptional()
  @IsCountryCode()
  @MaxLength(2)
  country?: string;
}

class Address {
  @IsString()
  @MaxLength(3)
  first_name!: string;
}

class Body {
  @IsString()
  name!: string;

  @IsOptional()
  @IsString()
  note?: string;

  @IsString()
  kind?: string = 'basic';

  @IsOptional()
  @ValidateNested()
  @NestedType(() => Address)
  shipping_address?: Address;

  @IsOptional()
  @ValidateNested({ each: true })
  @NestedType(() => Line)
  items?: Line[];
}

describe('validateContract', () => {
  it('returns an instance of the class', () => {
    const result = validateContract(Body, { name: 'a' });
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.value).toBeInstanceOf(Body);
  });

  it.each([null, 'text', 5, [{ name: 'a' }]])('refuses the non-object body %p', (plain) => {
    expect(validateContract(Body, plain)).toEqual({
      ok: false,
      errors: ['body must be a JSON object'],
    });
  });

  it('applies property defaults when a field is absent', () => {
    const result = validateContract(Body, { name: 'a' });
    expect(result.ok && result.value.kind).toBe('basic');
  });

  it('strips unknown properties, nested ones included', () => {
    const result = validateContract(Body, {
      name: 'a',
      admin: true,
      shipping_address: { first_name: 'Ada', x: 1 },
      items: [{ quantity: 1, y: 2 }],
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value).not.toHaveProperty('admin');
    expect(result.value.shipping_address).not.toHaveProperty('x');
    expect(result.value.items?.[0]).not.toHaveProperty('y');
  });

  it('names nested fields by their full API path', () => {
    const result = validateContract(Body, {
      name: 'a',
      shipping_address: { first_name: 'Adam' },
      items: [{ quantity: 1 }, { quantity: 1.5 }],
    });
    expect(result).toEqual({
      ok: false,
      errors: [
        'shipping_address.first_name must be shorter than or equal to 3 characters',
        'items[1].quantity must be an integer number',
      ],
    });
  });

  it('reports a missing or null required field once, as required', () => {
    expect(validateContract(Body, {})).toEqual({ ok: false, errors: ['name is required'] });
    expect(validateContract(Body, { name: null })).toEqual({
      ok: false,
      errors: ['name is required'],
    });
  });

  it('joins messages into one validation message', () => {
    expect(validationMessage(['a is required', 'b must be a string'])).toBe(
      'Validation failed: a is required; b must be a string',
    );
  });

  it('prefixes a message that does not start with the property name', () => {
    expect(
      flattenValidationErrors([
        {
          property: 'tags',
          value: ['x'],
          constraints: { c: 'each value in tags must be a string' },
        },
      ]),
    ).toEqual(['tags: each value in tags must be a string']);
  });

  it('tells a value of the wrong type its type only, and a value of the right type every rule it breaks', () => {
    expect(validateContract(Limited, { size: 'abc' })).toEqual({
      ok: false,
      errors: ['size must be an integer number'],
    });
    expect(validateContract(Limited, { size: 1, code: ['a', 'b'] })).toEqual({
      ok: false,
      errors: ['code must be a string'],
    });
    // A format of one type is a type check too.
    expect(validateContract(Limited, { size: 1, country: 12345 })).toEqual({
      ok: false,
      errors: [
        'country must be an ISO 3166-1 alpha-2 country code (two uppercase letters naming a country, e.g. US)',
      ],
    });
    // Each element's type is not the list's: its own limit is told too.
    expect(validateContract(Limited, { size: 1, tags: ['a', 'b', 3] })).toEqual({
      ok: false,
      errors: [
        'tags must contain no more than 2 elements',
        'tags: each value in tags must be a string',
      ],
    });
    expect(validateContract(Limited, { size: -1.5, code: 'ABCD' })).toEqual({
      ok: false,
      errors: [
        'size must not be less than 1',
        'size must be an integer number',
        'code must be shorter than or equal to 3 characters',
      ],
    });
  });
});
