import { CarrierEventTable } from './carrier-table';
import { DHL_TABLE } from './carriers/dhl.table';
import { DPD_TABLE } from './carriers/dpd.table';
import { RM_TABLE } from './carriers/rm.table';
import { UPS_TABLE } from './carriers/ups.table';
import { USPS_TABLE } from './carriers/usps.table';

/** Every carrier with a mapping table. A carrier without one is normalised by its text alone. */
export const CARRIER_TABLES: readonly CarrierEventTable[] = [
  DHL_TABLE,
  UPS_TABLE,
  USPS_TABLE,
  DPD_TABLE,
  RM_TABLE,
];
