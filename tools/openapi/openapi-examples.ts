/**
 * Examples for the OpenAPI document (and the AsyncAPI document's adapter messages), made from
 * their schemas: a value per property, picked by the property's name from values a merchant would
 * really send or receive (an address in Leipzig, a tee-shirt SKU, `ops@example.com`), bounded by
 * the schema's own rules. The documents' tests validate every example against its schema (the
 * linters check them again), and e2e/api-examples sends the request examples to a fresh platform.
 */

export interface JsonSchema {
  type?: string | string[];
  $ref?: string;
  allOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  required?: string[];
  enum?: unknown[];
  example?: unknown;
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  [keyword: string]: unknown;
}

/** The time every example names (a date-time; its date where a date is asked for). */
export const EXAMPLE_TIME = '2026-05-14T09:30:00Z';

/**
 * Realistic values by property name, or by `Schema.property` where one name means different
 * things (a product's description, a carrier event's); the first one the property's schema
 * accepts is used.
 */
const BY_NAME: Record<string, unknown[]> = {
  'CarrierEventDto.description': ['In transit to the delivery depot'],
  'CarrierCheckpointEvent.description': ['In transit to the delivery depot'],
  'WarehouseInboundRejectedEvent.reason': ['Cartons arrived damaged'],
  'WarehouseOrderCancelledEvent.reason': ['The customer cancelled at the warehouse'],
  'LabelCheckpointView.description': ['In transit to the delivery depot'],
  'LateCarrierEventView.description': ['In transit to the delivery depot'],
  'OrderCheckpointView.description': ['In transit to the delivery depot'],
  'CreateWebhookRequest.description': ['Order and tracking updates for the shop'],
  'WebhookEndpointView.description': ['Order and tracking updates for the shop'],
  'WebhookEndpointSecretView.description': ['Order and tracking updates for the shop'],
  'RejectInboundRequest.reason': ['Cartons arrived damaged'],
  // A date-time (interface.md: "Date Time"), though its name ends as a date's does.
  'OrderView.issue_date': [EXAMPLE_TIME],
  // An order line's tax is a rate (German VAT); a label item's, the line's amount of it.
  'SkuItemDto.tax': [0.19],
  'SkuItemView.tax': [0.19],
  'LabelItemDto.tax': [7.95],
  'CreateProductRequest.source': ['shopify'],
  'ProductView.source': ['shopify'],
  'ImageView.title': ['Front'],
  'ProductImageDto.title': ['Front'],
  'ImageView.url': ['https://cdn.example.com/tee-s.png'],
  'ProductImageDto.url': ['https://cdn.example.com/tee-s.png'],
  'OrderCheckpointView.status': ['transit'],
  'PackagingView.name': ['Poly mailer'],
  'ServiceZoneView.name': ['Germany'],
  'WarehouseView.name': ['Consign Leipzig'],
  address1: ['Karl-Liebknecht-Str. 12'],
  // A tee-shirt: no restricted contents (a service that may not carry them would refuse it).
  alcohol: ['No'],
  battery: ['No'],
  liquid: ['No'],
  address2: ['3rd floor'],
  api_key: ['csk_live_4f9a2c7e81b34d0a9e6f5c21'],
  body_html: ['<p>Organic cotton tee, regular fit.</p>'],
  brand: ['Nordlicht'],
  carrier: ['DPD'],
  carrier_code: ['DPD'],
  carrier_name: ['DPD Deutschland'],
  category: ['Apparel'],
  charge_weight_unit: ['kg'],
  city: ['Leipzig'],
  code: [200, 'DPD-CLASSIC'],
  company_name: ['Nordlicht Textil GmbH'],
  country: ['Germany', 'DE'],
  country_code: ['DE'],
  credential: ['crc_9b1e4d7a2f6c4e08b3a5d7f1'],
  currency: ['EUR'],
  customs_description: ['Cotton T-shirt'],
  description: ['Organic cotton tee, regular fit'],
  dest_city: ['Berlin'],
  dest_country_code: ['DE'],
  dest_zip_code: ['10115'],
  details: ['Leipzig, DE'],
  disabled_reason: ['The endpoint answered 410 Gone.'],
  district: ['Zentrum'],
  email: ['ops@example.com'],
  error: ['connect ECONNREFUSED'],
  error_code: ['ADDRESS_UNKNOWN'],
  event_code: ['IN_TRANSIT'],
  feedback: ['Delivered to the front door.'],
  first_name: ['Anna'],
  hold_reason: ['Customer asked to change the address'],
  hs_code: ['610910'],
  inco_term: ['DAP'],
  last_name: ['Schmidt'],
  location: ['Leipzig, DE'],
  message: ['success'],
  name: ['Nordlicht Textil', 'Leipzig warehouse'],
  origin_city: ['Leipzig'],
  origin_country_code: ['DE'],
  origin_zip_code: ['04109'],
  phone: ['+49 341 1234567'],
  platform: ['shopify'],
  platform_order_no: ['#1042'],
  postal_prefix: ['041'],
  prefix: ['041'],
  product_name: ['Organic tee'],
  province: ['Saxony'],
  province_code: ['SN'],
  reason: ['Customer asked to change the address'],
  reference: ['ORD-2026-1042'],
  refunded_currency: ['EUR'],
  rejection_reason: ['Cartons arrived damaged'],
  remarks: ['Leave at the back door'],
  secret: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
  service_code: ['DPD-CLASSIC'],
  service_name: ['DPD Classic'],
  service_zone: ['DE'],
  sku: ['TEE-S'],
  sku_code: ['TEE-S'],
  sku_number: ['TEE-S'],
  tags: ['organic'],
  source: ['carrier'],
  status: ['Approved', 'in_transit', 'delivered', 'enabled', 'Completed'],
  tax_currency: ['EUR'],
  timeliness: ['1-4 days'],
  timezone: ['Europe/Berlin'],
  title: ['Organic tee', 'S'],
  tracking_courier: ['DPD'],
  tracking_no: ['01234567890123'],
  tracking_number: ['01234567890123'],
  tracking_url: ['https://tracking.dpd.de/status/en_US/parcel/01234567890123'],
  unit: ['pcs', 'kg'],
  url: ['https://shop.example.com/hooks/consign', 'https://cdn.example.com/tee-s.png'],
  vendor: ['Nordlicht'],
  warehouse_code: ['WH-DE-01'],
  webhook_id: ['wh_3f2a9c'],
  zip_code: ['04109'],
  zone: ['DE'],
  weight_unit: ['kg'],
  weight_uom: ['kg'],
  length_unit: ['cm'],
  uom: ['cm', 'kg'],
  role: ['merchant'],
  order_status: ['Approved'],
  amount: [24.9],
  compare_at_price: [29.9],
  declared_unit_value: [24.9],
  declared_value: [24.9],
  height: [3],
  length: [30],
  width: [25],
  weight: [0.25],
  max_weight: [30],
  max_weight_kg: [30],
  original_weight: [0.25],
  charge_weight: [0.5],
  price: [24.9],
  retail_price: [24.9],
  unit_price: [24.9],
  page: [1],
  size: [20],
  quantity: [2],
  expect_quantity: [100],
  actual_quantity: [100],
  still_need_quantity: [0],
  packages: [1],
  package_number: [1],
  on_hand: [120],
  available: [100],
  reserved: [20],
  total: [3],
  fuel_surcharge_percent: [12.5],
  volumetric_divisor: [5000],
  response_code: [200],
  duration_ms: [182],
  attempts: [1],
  print_times: [1],
  sequence: [1],
};

const TIME_NAME = /(_time|_at)$/;

export class ExampleMaker {
  private readonly components = new Map<string, unknown>();

  constructor(private readonly schemas: Record<string, JsonSchema>) {}

  /** An example of the component schema `name` (one per component, reused wherever it is). */
  component(name: string): unknown {
    if (!this.components.has(name)) {
      const schema = this.schemas[name];
      if (!schema) throw new Error(`no component schema ${name}`);
      this.components.set(name, undefined); // a cycle ends in undefined
      this.components.set(name, this.of(schema, undefined, name));
    }
    return this.components.get(name);
  }

  /** An example of `schema`, the property `name` of the component schema `within` when known. */
  of(schema: JsonSchema, name?: string, within?: string): unknown {
    if (schema.$ref) return this.component(schema.$ref.split('/').pop()!);
    if (schema.example !== undefined) return schema.example;
    if (schema.allOf)
      return Object.assign({}, ...schema.allOf.map((part) => this.of(part, name, within) ?? {}));
    const choice = schema.anyOf ?? schema.oneOf;
    if (choice) {
      const nonNull = choice.find((option) => option.type !== 'null') ?? choice[0];
      return this.of(nonNull, name, within);
    }
    const named = namedValues(name, within);
    const preferred = named.find((value) => schema.enum?.includes(value));
    if (preferred !== undefined) return preferred;
    const enumerated = schema.enum?.find((value) => value !== null);
    if (enumerated !== undefined) return enumerated;
    if (schema.enum) return null;
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    const type = types.find((t) => t !== 'null') ?? (schema.properties ? 'object' : 'null');
    switch (type) {
      case 'object':
        return Object.fromEntries(
          Object.entries(schema.properties ?? {})
            .map(([key, property]) => [key, this.of(property, key, within)] as const)
            .filter(([, value]) => value !== undefined),
        );
      case 'array': {
        const item = schema.items ? this.of(schema.items, name, within) : undefined;
        return item === undefined ? [] : Array(Math.max(1, schema.minItems ?? 1)).fill(item);
      }
      case 'string':
        return stringExample(schema, named, name);
      case 'integer':
      case 'number':
        return numberExample(schema, type, named, name);
      case 'boolean':
        return false;
      default:
        return null;
    }
  }
}

function fits(schema: JsonSchema, value: string): boolean {
  if (schema.maxLength !== undefined && value.length > schema.maxLength) return false;
  if (schema.minLength !== undefined && value.length < schema.minLength) return false;
  return !schema.pattern || new RegExp(schema.pattern, 'u').test(value);
}

/** The values BY_NAME has for the property `name` of `within`, the qualified name first. */
function namedValues(name: string | undefined, within: string | undefined): unknown[] {
  if (name === undefined) return [];
  return [...(within ? (BY_NAME[`${within}.${name}`] ?? []) : []), ...(BY_NAME[name] ?? [])];
}

function stringExample(schema: JsonSchema, named: unknown[], name = ''): string {
  // The values named for the property first; then what its format or its name suggests.
  const candidates: unknown[] = [...named];
  if (schema.format === 'date' || name.endsWith('_date'))
    candidates.push(EXAMPLE_TIME.slice(0, 10));
  if (schema.format === 'date-time' || TIME_NAME.test(name)) candidates.push(EXAMPLE_TIME);
  if (schema.format === 'email') candidates.push('ops@example.com');
  if (schema.format === 'uri') candidates.push('https://shop.example.com/hooks/consign');
  candidates.push('EUR', 'DE', 'ops@example.com', 'Organic tee', 'TEE-S');
  const found = candidates.find(
    (value): value is string => typeof value === 'string' && fits(schema, value),
  );
  if (found !== undefined) return found;
  throw new Error(`no example fits the string property ${name}: ${JSON.stringify(schema)}`);
}

function numberExample(schema: JsonSchema, type: string, named: unknown[], name = ''): number {
  const first = named.find((value) => typeof value === 'number');
  let value =
    typeof first === 'number'
      ? first
      : TIME_NAME.test(name) || /(^|_)id$/.test(name)
        ? 1042
        : type === 'integer'
          ? 1
          : 1.5;
  if (type === 'integer') value = Math.round(value);
  if (schema.maximum !== undefined && value > schema.maximum) value = schema.maximum;
  if (schema.minimum !== undefined && value < schema.minimum) value = schema.minimum;
  if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum)
    value = schema.exclusiveMinimum + 1;
  return value;
}
