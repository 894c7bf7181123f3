import { IsEnum, IsPositive } from 'class-validator';
import { IsDecimal } from '../common/decimal';
import { LengthUnit } from '../label/length-unit';

/**
 * Package dimensions of a cost calculation. The spec does not mark the fields required; a size
 * without all three measures or without a unit cannot be rated, so when `dimension` is given all
 * four are required.
 */
export class DimensionDto {
  /** Number(12,2), in `uom`. */
  @IsDecimal()
  @IsPositive()
  length!: number;

  /** Number(12,2), in `uom`. */
  @IsDecimal()
  @IsPositive()
  width!: number;

  /** Number(12,2), in `uom`. */
  @IsDecimal()
  @IsPositive()
  height!: number;

  /** Unit of length, width and height. */
  @IsEnum(LengthUnit)
  uom!: LengthUnit;
}
