import { Injectable } from '@nestjs/common';
import {
  CarrierEventsRequest,
  CarrierEventsResult,
  LabelTopic,
  isCarrierCode,
} from '@consign/contracts';
import { ApiError } from '../http/api-error';
import { PathParam, RouteGroup, forward } from '../http/route-table';

/** The carrier code in the path, as written (the handler checks it). */
const carrierCodeParam: PathParam<string> = {
  parse: (text) => text,
  description: 'The carrier the credential was issued for, e.g. `DHL`.',
  schema: { type: 'string', pattern: '^[A-Z0-9][A-Z0-9_-]{0,31}$' },
};

/**
 * Where carriers that push webhooks report checkpoints: the same path as `carrier.checkpoint.v1`
 * on the bus. Authenticated with the carrier's credential (a merchant API key gets a 403).
 */
@Injectable()
export class CarrierEventsRoutes implements RouteGroup {
  readonly name = 'CarrierEvents';
  readonly tag = 'Carriers';
  readonly prefix = '2026-05/cloud/carrier';

  readonly routes = [
    /**
     * A batch of checkpoint events of the carrier in the path. Answered once every event is
     * persisted: recorded, ignored as a duplicate, or kept until its tracking number is allocated.
     * An event naming by its id a label that is not this carrier's is unmatched, as one naming no
     * label: it changes nothing of that label.
     */
    forward({
      name: 'ingest',
      method: 'POST',
      path: ':carrier_code/events',
      summary: 'Report carrier checkpoint events',
      access: { carrier: true },
      params: { carrier_code: carrierCodeParam },
      body: CarrierEventsRequest,
      response: {
        data: CarrierEventsResult,
        description: 'Persisted: `data` says what became of the events.',
        errors: [403],
      },
      topic: LabelTopic.IngestCarrierEvents,
      request: ({ carrier, params, body }) => {
        const carrierCode = params.carrier_code;
        if (!isCarrierCode(carrierCode))
          throw new ApiError(400, 'Validation failed: carrier_code must be a carrier code');
        if (carrierCode !== carrier)
          throw new ApiError(
            403,
            `This credential reports for carrier ${carrier}, not ${carrierCode}.`,
          );
        return { carrier_code: carrierCode, events: body.events };
      },
      key: ({ params }) => params.carrier_code,
    }),
  ];
}
