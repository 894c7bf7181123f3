import { Type } from 'class-transformer';
import { IsDefined, IsInt, IsObject, Min, ValidateNested } from 'class-validator';
import { CreateInboundRequest, InboundReceiptRequest, RejectInboundRequest } from '../inbound';
import { MerchantScoped } from './catalog.commands';
import { MerchantPageQuery } from './page-query';

export class CreateInboundCommand extends MerchantScoped {
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => CreateInboundRequest)
  inbound!: CreateInboundRequest;
}

/** Get and cancel name one inbound order of the merchant. */
export class InboundCommand extends MerchantScoped {
  @IsInt()
  @Min(1)
  inbound_id!: number;
}

export class ListInboundQuery extends MerchantPageQuery {}

export class RecordReceiptCommand extends InboundCommand {
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => InboundReceiptRequest)
  receipt!: InboundReceiptRequest;
}

export class RejectInboundCommand extends InboundCommand {
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => RejectInboundRequest)
  rejection!: RejectInboundRequest;
}
