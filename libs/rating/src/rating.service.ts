import { Inject, Injectable } from '@nestjs/common';
import {
  CalculateFreightRequest,
  CalculateOrderRequest,
  CarrierServiceView,
  FreightCostResultView,
  OrderCostResultView,
  WarehouseView,
} from '@consign/contracts';
import { DomainError } from '@consign/core';
import { calculateFreight } from './pricing/freight-calculation';
import { calculateOrder } from './pricing/order-calculation';
import { RatingFailure } from './pricing/rating-failure';
import type { ReferenceData } from './rate-cards/reference-data';
import { REFERENCE_DATA } from './rating.tokens';

/** rating-service's use cases: prices from the rate cards in memory, and the cards' lists. */
@Injectable()
export class RatingService {
  constructor(@Inject(REFERENCE_DATA) private readonly data: ReferenceData) {}

  calculateOrder(request: CalculateOrderRequest): OrderCostResultView[] {
    return refusalsAsDomainErrors(() => calculateOrder(this.data, request));
  }

  calculateFreight(
    request: CalculateFreightRequest,
    priceCurrency?: string,
  ): FreightCostResultView {
    return refusalsAsDomainErrors(() => calculateFreight(this.data, request, priceCurrency));
  }

  listWarehouses(): readonly WarehouseView[] {
    return this.data.warehouseViews;
  }

  listServices(): readonly CarrierServiceView[] {
    return this.data.serviceViews;
  }
}

function refusalsAsDomainErrors<T>(calculate: () => T): T {
  try {
    return calculate();
  } catch (error) {
    if (error instanceof RatingFailure) throw new DomainError(error.code, error.message);
    throw error;
  }
}
