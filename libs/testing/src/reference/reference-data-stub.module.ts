import { Controller, Module } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { CarrierServiceView, RatingTopic, Reply, WarehouseView, success } from '@consign/contracts';

/** The warehouses the stub knows (codes used throughout the tests). */
export const STUB_WAREHOUSES: WarehouseView[] = [
  { code: 'WH-NL-AMS', name: 'Amsterdam', country_code: 'NL' },
  { code: 'WH-DE-BER', name: 'Berlin', country_code: 'DE' },
  { code: 'WH-US-NJ', name: 'New Jersey', country_code: 'US' },
];

export const STUB_CARRIER_SERVICES: CarrierServiceView[] = [
  { service_code: 'PostNL-Standard', carrier: 'PostNL', inco_terms: ['DAP'] },
  { service_code: 'DHL-Express', carrier: 'DHL', inco_terms: ['DAP', 'DDP'] },
  { service_code: 'UPS-GROUND', carrier: 'UPS', inco_terms: ['DAP', 'DDP'] },
];

@Controller()
class ReferenceDataStubHandlers {
  @MessagePattern(RatingTopic.ListWarehouses)
  warehouses(): Reply<WarehouseView[]> {
    return success(STUB_WAREHOUSES);
  }

  @MessagePattern(RatingTopic.ListServices)
  services(): Reply<CarrierServiceView[]> {
    return success(STUB_CARRIER_SERVICES);
  }
}

/**
 * TEST FIXTURE ONLY: answers rating-service's reference-data topics from a fixed list, for
 * in-process tests that compose the real services without rating-service. Never part of an app.
 */
@Module({ controllers: [ReferenceDataStubHandlers] })
export class ReferenceDataStubModule {}
