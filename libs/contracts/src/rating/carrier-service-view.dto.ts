import { IncoTerm } from './inco-term';
import { RatingWeightUnit } from './rating-weight-unit';
import { RestrictedContent } from './restricted-content';

/** One weight break of a zone: the price of a chargeable weight up to `up_to`. */
export class WeightBreakView {
  /** Number(12,2), in the service's `charge_weight_unit`. */
  up_to!: number;
  /** Number(12,2), in the service's currency. */
  price!: number;
}

/** Price of each further `per` weight units above a zone's last break. */
export class AdditionalWeightView {
  /** Number(12,2), in the service's `charge_weight_unit`. */
  per!: number;
  /** Number(12,2), in the service's currency. */
  price!: number;
}

/** A price zone of a carrier service. */
export class ServiceZoneView {
  service_zone_id!: number;
  /** At most 8 characters (the cost result's `service_zone`). */
  code!: string;
  name!: string;
  /** Ascending. */
  breaks!: WeightBreakView[];
  /** Null: nothing heavier than the last break is carried. */
  additional!: AdditionalWeightView | null;
}

/**
 * Which zone a destination falls in. The most specific matching rule wins: a postal prefix
 * (the longest first), then a city, then the country alone; among equals, a rule for the origin
 * country beats one for any origin.
 */
export class ZoneRuleView {
  /** Destination, ISO 3166-1 alpha-2. */
  country_code!: string;
  postal_prefix!: string | null;
  city!: string | null;
  /** Only for shipments from this country; null: from any origin country of the service. */
  origin_country_code!: string | null;
  /** A zone `code`. */
  zone!: string;
}

/** Delivery to a remote postal area costs `rate` per charge-weight unit, at least `minimum`. */
export class RemoteAreaView {
  /** Number(12,2), per `charge_weight_unit`. */
  rate!: number;
  /** Number(12,2). */
  minimum!: number;
  /** Destination country to the postal prefixes it counts as remote. */
  postal_prefixes!: Record<string, string[]>;
}

/** A carrier service orders, labels and cost calculations may name (`service_code`). */
export class CarrierServiceView {
  service_id!: number;
  service_code!: string;
  service_name!: string;
  /** Carrier code. */
  carrier!: string;
  carrier_name!: string;
  /** The carrier integration labels are bought through. */
  platform!: string;
  /** ISO 3166-1 alpha-2 countries it ships from. */
  origin_countries!: string[];
  /** Whether it carries within one country; false: only from one country to another. */
  domestic!: boolean;
  /** Its terms: DAP (the receiver pays duty and tax) and/or DDP (the sender pays them). */
  inco_terms!: IncoTerm[];
  /** Delivery time, e.g. "3-5 days". */
  timeliness!: string;
  /** ISO 4217: the currency of every price of the service and of its cost results. */
  currency!: string;
  /** The unit its weight breaks, increments and limits are in (`kg` or `lb`). */
  charge_weight_unit!: RatingWeightUnit;
  /** Number(12,2): chargeable weight is rounded up to a multiple of this. */
  weight_increment!: number;
  /** Number(12,2): heaviest actual weight carried. */
  max_weight!: number;
  /** cm³ per kg; null: the service does not charge volumetric weight. */
  volumetric_divisor!: number | null;
  /** Percent of `shipping`, at most 2 decimals. */
  fuel_surcharge_percent!: number;
  /** Contents it does not carry: a label declaring one in `package_attributes` is refused. */
  restricted_contents!: RestrictedContent[];
  /** Its price zones, each with its weight breaks. */
  zones!: ServiceZoneView[];
  /** Which zone each destination falls in; a destination no rule matches is not served. */
  zone_rules!: ZoneRuleView[];
  /** Null: no remote-area surcharge. */
  remote_area!: RemoteAreaView | null;
}
