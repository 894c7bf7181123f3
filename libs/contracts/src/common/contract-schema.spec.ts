import 'reflect-metadata';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsOptional,
  IsPositive,
  IsString,
  MaxLength,
} from 'class-validator';
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

  it('writes @IsPositive() as greater than 0, not at least 1, and types @IsIn() of strings as a string', () => {
    class Item {
      @IsNumber()
      @IsPositive()
      weight!: number;

      @IsIn(['kg', 'lb'])
      weight_unit!: 'kg' | 'lb';

      @IsIn([1, 2])
      tier!: 1 | 2;
    }
    // What the Swagger CLI plugin's class-validator shim and a union type come out as.
    const schemas: Record<string, ContractSchema> = {
      Item: {
        type: 'object',
        properties: {
          weight: { type: 'number', minimum: 1 },
          weight_unit: { type: 'object' },
          tier: { type: 'object' },
        },
      },
    };
    applyContractRules(schemas, [Item]);
    expect(schemas.Item.properties).toEqual({
      weight: { type: 'number', exclusiveMinimum: 0 },
      weight_unit: { type: 'string', enum: ['kg', 'lb'] },
      tier: { type: 'number', enum: [1, 2] },
    });
  });

  it('reads a nullable type list as its type: not empty is a minimum length, an integer stays nullable', () => {
    class Pick {
      @IsOptional()
      @IsString()
      @IsNotEmpty()
      @MaxLength(32)
      warehouse_code!: string | null;

      @IsOptional()
      @IsInt()
      attempt!: number | null;
    }
    // What ts-json-schema-generator writes for `string | null` and `number | null`.
    const schemas: Record<string, ContractSchema> = {
      Pick: {
        type: 'object',
        properties: {
          warehouse_code: { type: ['string', 'null'] },
          attempt: { type: ['number', 'null'] },
        },
      },
    };
    applyContractRules(schemas, [Pick]);
    expect(schemas.Pick.properties).toEqual({
      warehouse_code: { type: ['string', 'null'], minLength: 1, maxLength: 32 },
      attempt: { type: ['integer', 'null'] },
    });
  });
});
