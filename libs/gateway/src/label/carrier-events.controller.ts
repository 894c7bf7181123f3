import { Body, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import {
  CarrierEventsRequest,
  CarrierEventsResult,
  LabelTopic,
  isCarrierCode,
} from '@consign/contracts';
import { AuthenticatedCarrier, CarrierOnly } from '../auth/api-key.auth';
import { ApiError } from '../http/api-error';
import { ApiEnvelope } from '../http/api-envelope';
import { contract } from '../http/contract.pipe';
import { CorrelationId } from '../http/request-context';
import { GatewayBus } from '../http/gateway-bus';
import { ApiController } from '../http/direct-routes';

/**
 * Where carriers that push webhooks report checkpoints: the same path as `carrier.checkpoint.v1`
 * on the bus. Authenticated with the carrier's credential (a merchant API key gets a 403).
 */
@ApiTags('Carriers')
@ApiController('2026-05/cloud/carrier')
export class CarrierEventsController {
  constructor(private readonly bus: GatewayBus) {}

  /**
   * A batch of checkpoint events of the carrier in the path. Answered once every event is
   * persisted: recorded, ignored as a duplicate, or kept until its tracking number is allocated.
   */
  @Post(':carrier_code/events')
  @CarrierOnly()
  @ApiSecurity('carrier')
  @ApiOperation({ summary: 'Report carrier checkpoint events' })
  @ApiParam({
    name: 'carrier_code',
    description: 'The carrier the credential was issued for, e.g. `DHL`.',
    schema: { type: 'string', pattern: '^[A-Z0-9][A-Z0-9_-]{0,31}$' },
  })
  @ApiEnvelope(CarrierEventsResult, {
    description: 'Persisted: `data` says what became of the events.',
    errors: [403],
  })
  ingest(
    @AuthenticatedCarrier() carrier: string,
    @CorrelationId() correlationId: string,
    @Param('carrier_code') carrierCode: string,
    @Body(contract(CarrierEventsRequest)) request: CarrierEventsRequest,
  ): Promise<CarrierEventsResult> {
    if (!isCarrierCode(carrierCode))
      throw new ApiError(400, 'Validation failed: carrier_code must be a carrier code');
    if (carrierCode !== carrier)
      throw new ApiError(
        403,
        `This credential reports for carrier ${carrier}, not ${carrierCode}.`,
      );
    return this.bus.call(
      LabelTopic.IngestCarrierEvents,
      { carrier_code: carrierCode, events: request.events },
      { key: carrierCode, correlationId },
    );
  }
}
