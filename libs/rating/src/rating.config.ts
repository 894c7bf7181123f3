import { Transform } from 'class-transformer';
import { IsOptional, IsString } from 'class-validator';
import { blankToUndefined } from '@consign/config';

/** rating-service's own settings (read with loadConfigOf; every one has a default). */
export class RatingConfig {
  /**
   * Folder of rating-service's rate cards (`<card>.v<N>.json`); when unset, the repository's
   * libs/rating/rate-cards, found above the running code.
   */
  @Transform(blankToUndefined)
  @IsOptional()
  @IsString()
  RATE_CARDS_DIR?: string;
}
