import { IsOptional, IsString } from 'class-validator';

/** Marketplace details of a label (`metadata`). */
export class LabelMetadataDto {
  /** Marketplace order number. */
  @IsOptional()
  @IsString()
  platform_order_no?: string;

  /** Channel name. */
  @IsOptional()
  @IsString()
  platform?: string;
}
