import { IncoTerm } from '@consign/contracts';
import { orderServiceProblems } from './order.references';

const WAREHOUSES = [
  { code: 'WH-NL-AMS', name: 'Amsterdam', country_code: 'NL' },
  { code: 'WH-US-NJ', name: 'New Jersey', country_code: 'US' },
];
const SERVICES = [
  { service_code: 'UPS-STD', carrier: 'UPS', inco_terms: [IncoTerm.DAP, IncoTerm.DDP] },
];

describe('orderServiceProblems', () => {
  it('accepts known codes, and a service with nothing to check', () => {
    expect(
      orderServiceProblems(
        { warehouse_code: 'WH-NL-AMS', service_code: 'UPS-STD', inco_term: 'DDP' },
        WAREHOUSES,
        SERVICES,
      ),
    ).toEqual([]);
    expect(orderServiceProblems({}, undefined, undefined)).toEqual([]);
  });

  it('names an unknown warehouse and lists the known ones', () => {
    expect(orderServiceProblems({ warehouse_code: 'WH-XX' }, WAREHOUSES, undefined)).toEqual([
      'service.warehouse_code WH-XX is not a warehouse you can use (known: WH-NL-AMS, WH-US-NJ)',
    ]);
  });

  it('names an unknown service, and an inco term the service does not offer', () => {
    expect(orderServiceProblems({ service_code: 'DHL-X' }, undefined, SERVICES)).toEqual([
      'service.service_code DHL-X is not a known carrier service (known: UPS-STD)',
    ]);
    expect(
      orderServiceProblems({ service_code: 'UPS-STD', inco_term: 'EXW' }, undefined, SERVICES),
    ).toEqual(['service.inco_term EXW is not offered by UPS-STD (offers: DAP, DDP)']);
  });

  it('reports every problem at once', () => {
    expect(orderServiceProblems({ warehouse_code: 'X', service_code: 'Y' }, [], [])).toEqual([
      'service.warehouse_code X is not a warehouse you can use (known: none)',
      'service.service_code Y is not a known carrier service (known: none)',
    ]);
  });
});
