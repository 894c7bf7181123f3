import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { PRODUCT_IMAGE_LIMITS } from './catalog.limits';

/** An image of a product. */
export class ProductImageDto {
  /** Address of the image. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(PRODUCT_IMAGE_LIMITS.url)
  url!: string;

  /** Title of the image; may be null. */
  @IsOptional()
  @IsString()
  @MaxLength(PRODUCT_IMAGE_LIMITS.title)
  title?: string | null;
}
