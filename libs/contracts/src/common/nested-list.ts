import { IsArray, IsObject, ValidateNested } from 'class-validator';
import { ContractClass, NestedType } from './contract-metadata';

/**
 * A list of nested contract objects: an array, then its size rules in the order given, then each
 * element an object validated by its own class (built as `type`). The same rules, in the same
 * order, as the decorators written one above the other:
 *
 *   @IsArray() @ArrayMaxSize(n) @ArrayNotEmpty() @IsObject({ each: true })
 *   @ValidateNested({ each: true }) @NestedType(() => Line)
 *
 * so the messages, and their order, are those of that stack.
 */
export function NestedList(
  type: () => ContractClass,
  ...sizeRules: PropertyDecorator[]
): PropertyDecorator {
  const stack = [
    IsArray(),
    ...sizeRules,
    IsObject({ each: true }),
    ValidateNested({ each: true }),
    NestedType(type),
  ];
  // Stacked decorators apply from the bottom up.
  return (target, key) => {
    for (let i = stack.length - 1; i >= 0; i--) stack[i](target, key);
  };
}
