import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsEnum,
  IsInt,
  IsObject,
  Min,
  ValidateNested,
} from 'class-validator';
import {
  CarrierEventDto,
  CreateLabelRequest,
  IsCarrierCode,
  LabelDocumentFormat,
  LabelDocumentType,
  TRACKING_LIMITS,
} from '../label';
import { MerchantScoped } from './catalog.commands';

export class CreateLabelCommand extends MerchantScoped {
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => CreateLabelRequest)
  label!: CreateLabelRequest;
}

export class GetLabelQuery extends MerchantScoped {
  @IsInt()
  @Min(1)
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

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(TRACKING_LIMITS.events_per_request)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => CarrierEventDto)
  events!: CarrierEventDto[];
}

/** The tracking of every shipment of one order of the merchant (endpoint 8). */
export class GetOrderTrackingQuery extends MerchantScoped {
  @IsInt()
  @Min(1)
  order_id!: number;
}
