import { IsBoolean, IsOptional, IsPositive } from 'class-validator';
import { IsDecimal } from '../common/decimal';
import { LABEL_MEASURE } from './label.limits';

/** Package contents and total weight (may affect carrier availability and restrictions). */
export class PackageAttributesDto {
  /** A service whose `restricted_contents` lists `alcohol` refuses the label (422). */
  @IsOptional()
  @IsBoolean()
  contains_alcohol?: boolean;

  /** A service whose `restricted_contents` lists `liquid` refuses the label (422). */
  @IsOptional()
  @IsBoolean()
  contains_liquid?: boolean;

  /** A service whose `restricted_contents` lists `battery` refuses the label (422). */
  @IsOptional()
  @IsBoolean()
  contains_battery?: boolean;

  /** A service whose `restricted_contents` lists `dangerous_goods` refuses the label (422). */
  @IsOptional()
  @IsBoolean()
  contains_dangerous_goods?: boolean;

  /** True: no service carries the package (422). */
  @IsOptional()
  @IsBoolean()
  contains_prohibited_items?: boolean;

  /** Total package weight, in the label's `weight_unit`; up to 3 decimals. */
  @IsOptional()
  @IsDecimal(LABEL_MEASURE.precision, LABEL_MEASURE.scale)
  @IsPositive()
  weight?: number;
}
