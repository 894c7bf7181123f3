import 'reflect-metadata';
import {
  ArrayMaxSize,
  IsArray,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { NestedType } from '../common/contract-metadata';
import { NestedList } from '../common/nested-list';
import { INPUT_LIMITS } from '../common/input-limits';
import { IsCurrencyCode } from '../common/formats';
import { PRODUCT_LIMITS, TAG_SEPARATOR } from './catalog.limits';
import { IsOptionMap, MaxJoinedLength, MaxJsonLength, UniqueSkus } from './catalog.validator';
import { CreateVariantRequest } from './create-variant-request.dto';
import { ProductImageDto } from './product-image.dto';

const NO_TAG_SEPARATOR = /^[^,]*$/;

/** Body of POST /2025-07/cloud/product. */
export class CreateProductRequest {
  /** The product's name. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(PRODUCT_LIMITS.title)
  title!: string;

  /** Description (HTML). */
  @IsOptional()
  @IsString()
  @MaxLength(PRODUCT_LIMITS.body_html)
  body_html?: string;

  /** Brand or maker. */
  @IsOptional()
  @IsString()
  @MaxLength(PRODUCT_LIMITS.vendor)
  vendor?: string;

  /** Tags; together, joined with ",", at most 2046 characters. A tag may not contain ",". */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(INPUT_LIMITS.array_items)
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  @Matches(NO_TAG_SEPARATOR, {
    each: true,
    message: 'each value in $property must not contain ","',
  })
  @MaxJoinedLength(PRODUCT_LIMITS.tags, TAG_SEPARATOR)
  tags?: string[];

  /** ISO 4217 currency code of the prices. */
  @IsCurrencyCode()
  currency!: string;

  /** Product source. */
  @IsOptional()
  @IsString()
  @MaxLength(PRODUCT_LIMITS.source)
  source?: string;

  /** Variant options: option name to the list of its values, e.g. `{"Color": ["Red", "Blue"]}`. */
  @IsOptional()
  @IsOptionMap('string-list')
  @MaxJsonLength(PRODUCT_LIMITS.options)
  options?: Record<string, string[]>;

  /** Product category, free text. */
  @IsOptional()
  @IsString()
  @MaxLength(PRODUCT_LIMITS.category)
  category?: string;

  /** Pictures of the product, by address (nothing is uploaded). */
  @IsOptional()
  @NestedList(() => ProductImageDto, ArrayMaxSize(INPUT_LIMITS.array_items))
  images?: ProductImageDto[];

  /** Variants; their `sku` values are unique within the product. */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(INPUT_LIMITS.array_items)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @UniqueSkus()
  @NestedType(() => CreateVariantRequest)
  variants?: CreateVariantRequest[];
}
