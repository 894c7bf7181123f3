import { Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CarrierServiceView, RatingTopic, WarehouseView } from '@consign/contracts';
import { MerchantId } from '../auth/api-key.auth';
import { ApiEnvelope } from '../http/api-envelope';
import { CorrelationId } from '../http/request-context';
import { GatewayBus } from '../http/gateway-bus';
import { ApiController } from '../http/direct-routes';

/**
 * Reference data the spec needs but does not show (ARCHITECTURE.md house rules): the warehouse
 * codes and carrier services a merchant may name. Short lists from the rate cards: no paging.
 */
@ApiTags('Reference data')
@ApiController('2025-07/cloud')
export class ReferenceDataController {
  constructor(private readonly bus: GatewayBus) {}

  /** Every warehouse, with its address, time zone and fee schedule. */
  @Get('warehouse')
  @ApiOperation({
    summary: 'List warehouses',
    description: 'The warehouse codes a merchant may use.',
  })
  @ApiEnvelope([WarehouseView], { description: '`data` is every warehouse.' })
  warehouses(
    @MerchantId() merchantId: number,
    @CorrelationId() correlationId: string,
  ): Promise<WarehouseView[]> {
    return this.bus.call(
      RatingTopic.ListWarehouses,
      { merchant_id: merchantId },
      { key: merchantId, correlationId },
    );
  }

  /** Every carrier service, with its inco terms, zones, weight breaks and surcharges. */
  @Get('service')
  @ApiOperation({
    summary: 'List carrier services',
    description: 'The services to choose `service_code` from.',
  })
  @ApiEnvelope([CarrierServiceView], { description: '`data` is every carrier service.' })
  services(
    @MerchantId() merchantId: number,
    @CorrelationId() correlationId: string,
  ): Promise<CarrierServiceView[]> {
    return this.bus.call(
      RatingTopic.ListServices,
      { merchant_id: merchantId },
      { key: merchantId, correlationId },
    );
  }
}
