import { IsBoolean, IsOptional, IsPositive } from 'class-validator';
import { IsDecimal } from '../common/decimal';
import { LABEL_MEASURE } from './label.limits';

/** Package contents and total weight (may affect carrier availability and restrictions). */
export class PackageAttributesDto {
  @IsOptional()
  @IsBoolean()
  contains_alcohol?: boolean;

  @IsOptional()
  @IsBoolean()
  contains_liquid?: boolean;

  @IsOptional()
  @IsBoolean()
  contains_battery?: boolean;

  @IsOptional()
  @IsBoolean()
  contains_dangerous_goods?: boolean;

  @IsOptional()
  @IsBoolean()
  contains_prohibited_items?: boolean;

  /** Total package weight, in the label's `weight_unit`; up to 3 decimals. */
  @IsOptional()
  @IsDecimal(LABEL_MEASURE.precision, LABEL_MEASURE.scale)
  @IsPositive()
  weight?: number;
}
