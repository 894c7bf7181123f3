import { Logger, Module } from '@nestjs/common';
import { loadConfigOf } from '@consign/config';
import { findRateCardsFolder, loadRateCards } from './rate-cards/rate-card.loader';
import { RatingConfig } from './rating.config';
import { RatingHandlers } from './rating.handlers';
import { RatingService } from './rating.service';
import { REFERENCE_DATA } from './rating.tokens';

/**
 * rating-service: warehouses, carrier services, rate cards and duty/VAT rules, loaded from the
 * rate-card files once at start-up (a bad file stops start-up, naming the file and the field)
 * and served from memory. It owns no database schema: the cards are versioned in the repository.
 */
@Module({
  controllers: [RatingHandlers],
  providers: [
    { provide: RatingConfig, useFactory: () => loadConfigOf(RatingConfig) },
    {
      provide: REFERENCE_DATA,
      inject: [RatingConfig],
      useFactory: (config: RatingConfig) => {
        const folder = config.RATE_CARDS_DIR ?? findRateCardsFolder();
        const data = loadRateCards(folder);
        const versions = Object.entries(data.versions)
          .map(([card, version]) => `${card} v${version}`)
          .join(', ');
        new Logger('Rating').log(`rate cards from ${folder}: ${versions}`);
        return data;
      },
    },
    RatingService,
  ],
  exports: [RatingService],
})
export class RatingModule {}
