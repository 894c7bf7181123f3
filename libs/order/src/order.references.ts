import { CarrierServiceView, OrderServiceDto, WarehouseView } from '@consign/contracts';

/**
 * What is wrong with an order's `service` against the reference data (empty when nothing is):
 * the warehouse must be one the merchant may use, the service a known carrier service, and the
 * inco term one that service offers. Messages name the field by its API path.
 */
export function orderServiceProblems(
  service: OrderServiceDto,
  warehouses: readonly Pick<WarehouseView, 'code'>[] | undefined,
  services: readonly Pick<CarrierServiceView, 'service_code' | 'inco_terms'>[] | undefined,
): string[] {
  const problems: string[] = [];
  if (service.warehouse_code !== undefined && warehouses) {
    if (!warehouses.some((w) => w.code === service.warehouse_code))
      problems.push(
        `service.warehouse_code ${service.warehouse_code} is not a warehouse you can use (known: ${list(warehouses.map((w) => w.code))})`,
      );
  }
  if (service.service_code !== undefined && services) {
    const known = services.find((s) => s.service_code === service.service_code);
    if (!known) {
      problems.push(
        `service.service_code ${service.service_code} is not a known carrier service (known: ${list(services.map((s) => s.service_code))})`,
      );
    } else if (
      service.inco_term !== undefined &&
      !(known.inco_terms as readonly string[]).includes(service.inco_term)
    ) {
      problems.push(
        `service.inco_term ${service.inco_term} is not offered by ${known.service_code} (offers: ${list(known.inco_terms)})`,
      );
    }
  }
  return problems;
}

function list(values: string[]): string {
  const shown = values.slice(0, 20).join(', ');
  return values.length > 20 ? `${shown}, …` : shown || 'none';
}
