import { Module } from '@nestjs/common';
import { inboundDatabase } from './inbound.database';
import { InboundHandlers } from './inbound.handlers';
import { InboundLifecycle } from './inbound-lifecycle.service';
import { InboundService } from './inbound.service';
import { RatingClientModule } from '@consign/rating-client';
import { InboundRepository } from './inbound.repository';

/** inbound-service: inbound (stock-receiving) orders, receipts and their state machine. */
@Module({
  imports: [inboundDatabase.module, RatingClientModule],
  controllers: [InboundHandlers],
  providers: [InboundService, InboundLifecycle, InboundRepository],
  exports: [InboundService, InboundLifecycle],
})
export class InboundModule {}
