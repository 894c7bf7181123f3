import 'reflect-metadata';
// eslint-disable-next-line no-restricted-imports -- the decorators the fast path must leave to class-validator
import { Exclude, Expose, Transform, Type } from 'class-transformer';
import {
  ArrayNotEmpty,
  IsArray,
  IsDefined,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  MaxLength,
  ValidateBy,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { CalculateOrderCommand } from '../bus/rating.commands';
import { CreateProductCommand } from '../bus/catalog.commands';
import { CalculateFreightRequest } from '../rating/calculate-freight-request.dto';
import { CalculateOrderRequest } from '../rating/calculate-order-request.dto';
import { validCalculateOrder } from '@consign/testing/fixtures';
import * as contracts from '../index';
import { ContractClass, NestedType, Transformed, describeContract } from './contract-metadata';
import { hasCompiledValidation, sameContractValue, validateCompiled } from './compiled-validation';
import { validateContract } from './validation';

const OPTIONS = { enableImplicitConversion: false, exposeDefaultValues: true };

class Line {
  @IsInt()
  quantity!: number;
}

class Body {
  @IsString()
  @MaxLength(5)
  name!: string;

  @IsOptional()
  @IsIn(['a', 'b'])
  kind?: string;

  @Transformed(({ value }) => value ?? 'none')
  @IsString()
  note?: string = 'none';

  @IsArray()
  @ArrayNotEmpty()
  @ValidateNested({ each: true })
  @NestedType(() => Line)
  lines!: Line[];

  @ValidateIf((body: Body) => body.kind === 'b')
  @IsDefined()
  reason?: string;
}

const fast = (plain: object) => validateCompiled(Body, plain, OPTIONS);
const valid = () => ({ name: 'tee', lines: [{ quantity: 2 }] });

describe('compiled validation', () => {
  it('compiles the contracts of the hot endpoints', () => {
    for (const cls of [
      CalculateOrderRequest,
      CalculateOrderCommand,
      CalculateFreightRequest,
      CreateProductCommand,
      Body,
    ])
      expect(hasCompiledValidation(cls)).toBe(true);
  });

  it('compiles every contract class', () => {
    const validated = Object.entries(contracts as Record<string, unknown>).filter(
      (entry): entry is [string, ContractClass] =>
        typeof entry[1] === 'function' && describeContract(entry[1]).properties.length > 0,
    );
    expect(validated.length).toBeGreaterThan(90);
    const slow = validated.filter(([, cls]) => !hasCompiledValidation(cls)).map(([name]) => name);
    expect(slow).toEqual([]);
  });

  it('builds what plainToInstance builds: instances, defaults, transforms, no unknown fields', () => {
    const value = fast({ ...valid(), extra: 1, note: null, lines: [{ quantity: 2, x: 'y' }] });
    expect(value).toBeInstanceOf(Body);
    expect(value!.lines[0]).toBeInstanceOf(Line);
    expect(value).toEqual({ name: 'tee', note: 'none', lines: [{ quantity: 2 }] });
    expect(value).not.toHaveProperty('extra');
    expect(value!.lines[0]).not.toHaveProperty('x');
  });

  it.each<[string, object]>([
    ['a constraint broken', { ...valid(), name: 'too long' }],
    ['a required field missing', { lines: [{ quantity: 1 }] }],
    ['a nested constraint broken', { ...valid(), lines: [{ quantity: 1.5 }] }],
    ['a nested element that is not an object', { ...valid(), lines: [3] }],
    ['an empty array', { ...valid(), lines: [] }],
    ['a conditional field missing when its condition holds', { ...valid(), kind: 'b' }],
    ['an optional field of the wrong value', { ...valid(), kind: 'c' }],
  ])('does not vouch for %s', (_title, plain) => {
    expect(fast(plain)).toBeUndefined();
    expect(validateContract(Body, plain).ok).toBe(false);
  });

  it('vouches for what class-validator accepts, conditions included', () => {
    for (const plain of [
      valid(),
      { ...valid(), kind: 'a' },
      { ...valid(), kind: 'b', reason: 'x' },
    ])
      expect(fast(plain)).toBeDefined();
  });

  it('counts a MaxLength the way validator.js does, past the UTF-16 shortcut', () => {
    // Five characters each: 10 UTF-16 units (surrogate pairs), 10 (a variation selector after
    // each), the limit exactly; then six characters in 6 units and in 12.
    for (const name of ['😀😀😀😀😀', '❤️❤️❤️❤️❤️', 'abcde'])
      expect(fast({ ...valid(), name })).toBeDefined();
    for (const name of ['abcdef', '😀😀😀😀😀😀']) {
      expect(fast({ ...valid(), name })).toBeUndefined();
      expect(validateContract(Body, { ...valid(), name })).toEqual({
        ok: false,
        errors: ['name must be shorter than or equal to 5 characters'],
      });
    }
  });

  it('gives each check the object and value it judges, on every call', () => {
    const seen: unknown[] = [];
    class Pair {
      @ValidateBy({
        name: 'sameAsOther',
        validator: {
          validate: (value: unknown, args) => {
            seen.push([args?.value, (args?.object as Pair).other, args?.targetName]);
            return value === (args?.object as Pair).other;
          },
        },
      })
      first!: string;

      @IsString()
      other!: string;
    }
    expect(validateCompiled(Pair, { first: 'x', other: 'x' }, OPTIONS)).toBeDefined();
    expect(validateCompiled(Pair, { first: 'y', other: 'z' }, OPTIONS)).toBeUndefined();
    expect(validateCompiled(Pair, { first: 'z', other: 'z' }, OPTIONS)).toBeDefined();
    expect(seen).toEqual([
      ['x', 'x', 'Pair'],
      ['y', 'z', 'Pair'],
      ['z', 'z', 'Pair'],
    ]);
  });

  it('gives the same value as class-transformer for a full calculation request', () => {
    const plain = { merchant_id: 3, request: validCalculateOrder() };
    const compiled = validateCompiled(CalculateOrderCommand, plain, OPTIONS);
    const result = validateContract(CalculateOrderCommand, plain);
    expect(result.ok && sameContractValue(compiled, result.value)).toBe(true);
  });

  it('leaves classes it cannot mirror to class-validator', () => {
    class Grouped {
      @IsString({ groups: ['admin'] })
      name!: string;
    }
    class Untyped {
      @ValidateNested()
      line!: Line;
    }
    expect(hasCompiledValidation(Grouped)).toBe(false);
    expect(hasCompiledValidation(Untyped)).toBe(false);
    expect(validateCompiled(Grouped, { name: 'x' }, OPTIONS)).toBeUndefined();
    expect(validateContract(Untyped, { line: { quantity: 1 } }).ok).toBe(false);
  });

  it("leaves classes with class-transformer's own decorators to class-validator", () => {
    // The contracts use @NestedType and @Transformed; these build what the plan does not know.
    class Typed {
      @IsDefined()
      @Type(() => Line)
      line!: Line;
    }
    class Transformed_ {
      @Transform(({ value }) => value ?? 'none')
      @IsString()
      note!: string;
    }
    class Renamed {
      @Expose({ name: 'title' })
      @IsString()
      name!: string;
    }
    class Excluded {
      @IsString()
      name!: string;

      @Exclude()
      @IsOptional()
      secret?: string;
    }
    @Exclude()
    class ExcludeAll {
      @IsString()
      name!: string;
    }
    for (const cls of [Typed, Transformed_, Renamed, Excluded, ExcludeAll])
      expect([cls.name, hasCompiledValidation(cls)]).toEqual([cls.name, false]);
    const typed = validateContract(Typed, { line: { quantity: 1 } });
    expect(typed.ok && typed.value.line).toBeInstanceOf(Line);
    expect(validateContract(Transformed_, { note: null })).toEqual({
      ok: true,
      value: { note: 'none' },
    });
  });

  it('is checked against class-validator under test: a disagreement throws', () => {
    // A validator that answers differently on each call makes the two paths disagree.
    let calls = 0;
    class Flaky {
      @ValidateBy({ name: 'flaky', validator: { validate: () => calls++ % 2 === 0 } })
      value!: string;
    }
    expect(() => validateContract(Flaky, { value: 'x' })).toThrow(
      /compiled validation of Flaky accepted what class-validator refuses/,
    );
  });
});
