import {
  ArrayMaxSize,
  ArrayMinSize,
  IsDefined,
  IsEnum,
  IsObject,
  ValidateNested,
} from 'class-validator';
import { IsId } from '../common/formats';
import { NestedType } from '../common/contract-metadata';
import { NestedList } from '../common/nested-list';
import {
  CarrierEventDto,
  CarrierEventsResult,
  CreateLabelRequest,
  IsCarrierCode,
  LabelDocumentFormat,
  LabelDocumentType,
  LabelDocumentView,
  LabelTrackingView,
  LabelView,
  ShipmentParcelView,
  TRACKING_LIMITS,
} from '../label';
import { OrderTrackingView, ShipOrderRequest } from '../order';
import { MerchantScoped } from './catalog.commands';
import { command } from './definition';

export class CreateLabelCommand extends MerchantScoped {
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @NestedType(() => CreateLabelRequest)
  label!: CreateLabelRequest;
}

export class GetLabelQuery extends MerchantScoped {
  @IsId()
  label_id!: number;
}

/** One document of a label, rendered by label-tracking-service. */
export class GetLabelDocumentQuery extends GetLabelQuery {
  @IsEnum(LabelDocumentFormat)
  format!: LabelDocumentFormat;

  @IsEnum(LabelDocumentType)
  type!: LabelDocumentType;
}

/** A carrier's webhook batch, forwarded by the gateway; answered once the events are persisted. */
export class IngestCarrierEventsCommand {
  /** The authenticated carrier (from its credential, never from the body). */
  @IsCarrierCode()
  carrier_code!: string;

  @NestedList(
    () => CarrierEventDto,
    ArrayMinSize(1),
    ArrayMaxSize(TRACKING_LIMITS.events_per_request),
  )
  events!: CarrierEventDto[];
}

/** The tracking of every shipment of one order of the merchant (endpoint 8). */
export class GetOrderTrackingQuery extends MerchantScoped {
  @IsId()
  order_id!: number;
}

/**
 * Whether an order of the merchant may ship with this carrier and tracking number: asked by the
 * gateway before it sends the ship, so that a number the merchant cannot use is a 409 rather than
 * a shipment label-tracking-service refuses afterwards.
 */
export class CheckShipmentQuery extends MerchantScoped {
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @NestedType(() => ShipOrderRequest)
  shipment!: ShipOrderRequest;
}

/** label-tracking-service's request-reply topics. */
export const LabelCommands = {
  Create: command('label.label.create.v1', CreateLabelCommand, Number, { idempotent: true }),
  Get: command('label.label.get.v1', GetLabelQuery, LabelView),
  GetTracking: command('label.tracking.get.v1', GetLabelQuery, LabelTrackingView),
  IngestCarrierEvents: command(
    'label.checkpoint.ingest.v1',
    IngestCarrierEventsCommand,
    CarrierEventsResult,
  ),
  GetOrderTracking: command('label.order_tracking.get.v1', GetOrderTrackingQuery, [
    OrderTrackingView,
  ]),
  GetDocument: command('label.document.get.v1', GetLabelDocumentQuery, LabelDocumentView),
  Void: command('label.label.void.v1', GetLabelQuery, LabelView, { idempotent: true }),
  CheckShipment: command('label.shipment.check.v1', CheckShipmentQuery, ShipmentParcelView),
};
