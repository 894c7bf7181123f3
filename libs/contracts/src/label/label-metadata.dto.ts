import { IsOptional, IsString, MaxLength } from 'class-validator';
import { LABEL_LIMITS } from './label.limits';

/** Marketplace details of a label (`metadata`). */
export class LabelMetadataDto {
  /** Marketplace order number. */
  @IsOptional()
  @IsString()
  @MaxLength(LABEL_LIMITS.metadata.platform_order_no)
  platform_order_no?: string;

  /** Channel name. */
  @IsOptional()
  @IsString()
  @MaxLength(LABEL_LIMITS.metadata.platform)
  platform?: string;
}
