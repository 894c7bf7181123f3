import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CalculateFreightCommand,
  CalculateOrderCommand,
  CarrierServiceView,
  FreightCostResultView,
  ListCarrierServicesQuery,
  ListWarehousesQuery,
  OrderCostResultView,
  RatingTopic,
  Reply,
  WarehouseView,
} from '@consign/contracts';
import { handleCommand } from '@consign/platform';
import { RatingService } from './rating.service';

/** rating-service's bus interface: thin, validate and delegate. */
@Controller()
export class RatingHandlers {
  constructor(private readonly rating: RatingService) {}

  @MessagePattern(RatingTopic.CalculateOrder)
  calculateOrder(@Payload() payload: unknown): Promise<Reply<OrderCostResultView[]>> {
    return handleCommand(CalculateOrderCommand, payload, async (c) =>
      this.rating.calculateOrder(c.request),
    );
  }

  @MessagePattern(RatingTopic.CalculateFreight)
  calculateFreight(@Payload() payload: unknown): Promise<Reply<FreightCostResultView>> {
    return handleCommand(CalculateFreightCommand, payload, async (c) =>
      this.rating.calculateFreight(c.request, c.price_currency),
    );
  }

  @MessagePattern(RatingTopic.ListWarehouses)
  listWarehouses(@Payload() payload: unknown): Promise<Reply<readonly WarehouseView[]>> {
    return handleCommand(ListWarehousesQuery, payload, async () => this.rating.listWarehouses());
  }

  @MessagePattern(RatingTopic.ListServices)
  listServices(@Payload() payload: unknown): Promise<Reply<readonly CarrierServiceView[]>> {
    return handleCommand(ListCarrierServicesQuery, payload, async () => this.rating.listServices());
  }
}
