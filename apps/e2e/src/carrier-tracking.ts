/** Carrier event times: an hour from now (after the label's own first checkpoint), plus minutes. */
export const T0 = Math.ceil((Date.now() + 3_600_000) / 60_000) * 60_000;

/** `minutes` after T0 as local time in a zone `offset` hours east of UTC. */
export function local(minutes: number, offset = 0): string {
  const time = new Date(T0 + (minutes + offset * 60) * 60_000).toISOString().slice(0, 19);
  const zone = `${offset < 0 ? '-' : '+'}${String(Math.abs(offset)).padStart(2, '0')}:00`;
  return `${time}${zone}`;
}

/** `minutes` after T0 as the API answers it. */
export function utc(minutes: number): string {
  return new Date(T0 + minutes * 60_000).toISOString();
}

/** A checkpoint of GET /2026-05/cloud/label/tracking/{id}. */
export interface TrackingCheckpoint {
  local_time: string;
  details: string | null;
  description: string;
  status: string;
}

/** What deliveredTracking expects of the tracking (its last checkpoint is a jest matcher). */
export interface ExpectedTracking {
  tracking_courier: string;
  tracking_number: string;
  outbound_time: string;
  delivered_time: string;
  checkpoints: unknown[];
}

/**
 * The tracking of a Royal Mail label (for toEqual) once the carrier has reported E00 allocating
 * `trackingNumber` at minute 0, E10 picked up in Lisboa at 600 and E80 delivered in Porto at 3000;
 * `between`: more checkpoints, newest first, that fall between the delivery and the pick-up.
 */
export function deliveredTracking(
  trackingNumber: string,
  between: TrackingCheckpoint[] = [],
): ExpectedTracking {
  return {
    tracking_courier: 'RM',
    tracking_number: trackingNumber,
    outbound_time: utc(600),
    delivered_time: utc(3000),
    checkpoints: [
      {
        local_time: utc(3000),
        details: 'Porto, PT',
        description: 'Delivered to the front door',
        status: 'delivered',
      },
      ...between,
      {
        local_time: utc(600),
        details: 'Lisboa, PT',
        description: 'Picked up by courier',
        status: 'in_transit',
      },
      {
        local_time: utc(0),
        details: null,
        description: 'Shipment information received',
        status: 'information_received',
      },
      // The label's own first checkpoint, from its creation.
      expect.objectContaining({ status: 'information_received' }),
    ],
  };
}
