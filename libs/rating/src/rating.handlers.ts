import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CarrierServiceView,
  FreightCostResultView,
  OrderCostResultView,
  RatingCommands,
  Reply,
  WarehouseView,
} from '@consign/contracts';
import { handleCommand } from '@consign/messaging';
import { RatingService } from './rating.service';

/** rating-service's bus interface: thin, validate and delegate. */
@Controller()
export class RatingHandlers {
  constructor(private readonly rating: RatingService) {}

  @MessagePattern(RatingCommands.CalculateOrder.topic)
  calculateOrder(@Payload() payload: unknown): Promise<Reply<OrderCostResultView[]>> {
    return handleCommand(RatingCommands.CalculateOrder, payload, async (c) =>
      this.rating.calculateOrder(c.request),
    );
  }

  @MessagePattern(RatingCommands.CalculateFreight.topic)
  calculateFreight(@Payload() payload: unknown): Promise<Reply<FreightCostResultView>> {
    return handleCommand(RatingCommands.CalculateFreight, payload, async (c) =>
      this.rating.calculateFreight(c.request, c.price_currency),
    );
  }

  @MessagePattern(RatingCommands.ListWarehouses.topic)
  listWarehouses(@Payload() payload: unknown): Promise<Reply<readonly WarehouseView[]>> {
    return handleCommand(RatingCommands.ListWarehouses, payload, async () =>
      this.rating.listWarehouses(),
    );
  }

  @MessagePattern(RatingCommands.ListServices.topic)
  listServices(@Payload() payload: unknown): Promise<Reply<readonly CarrierServiceView[]>> {
    return handleCommand(RatingCommands.ListServices, payload, async () =>
      this.rating.listServices(),
    );
  }
}
