import 'reflect-metadata';
import { ArrayMaxSize, IsArray, IsOptional, IsString, MaxLength } from 'class-validator';
import { ContractSchema, applyContractRules } from './contract-schema';
import { IsCountryCode } from './formats';
import { INPUT_LIMITS } from './input-limits';

class Parcel {
  @IsString()
  @MaxLength(40)
  name!: string;

  @IsOptional()
  @IsCountryCode()
  origin?: string;

  @IsArray()
  @ArrayMaxSize(INPUT_LIMITS.array_items)
  @IsString({ each: true })
  @MaxLength(8, { each: true })
  tags!: string[];
}

const schema = (): Record<string, ContractSchema> => ({
  Parcel: {
    type: 'object',
    properties: {
      name: { type: 'string' },
      origin: { type: 'string' },
      tags: { type: 'array', items: { type: 'string' } },
    },
    required: ['name', 'origin', 'tags'],
  },
});

describe('applyContractRules', () => {
  it('writes the class-validator rules as JSON Schema keywords, `each` ones on the items', () => {
    const schemas = schema();
    applyContractRules(schemas, [Parcel]);
    expect(schemas.Parcel.properties).toEqual({
      name: { type: 'string', maxLength: 40 },
      origin: { type: 'string', pattern: '^[A-Z]{2}$' },
      tags: {
        type: 'array',
        maxItems: INPUT_LIMITS.array_items,
        items: { type: 'string', maxLength: 8 },
      },
    });
    expect(schemas.Parcel.required).toEqual(['name', 'origin', 'tags']);
  });

  it('takes @IsOptional properties out of `required` when asked', () => {
    const schemas = schema();
    applyContractRules(schemas, [Parcel], { optionalNotRequired: true });
    expect(schemas.Parcel.required).toEqual(['name', 'tags']);
  });
});
