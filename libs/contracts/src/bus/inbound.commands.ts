import { IsDefined, IsObject, ValidateNested } from 'class-validator';
import { IsId } from '../common/formats';
import { NestedType } from '../common/contract-metadata';
import {
  CreateInboundRequest,
  InboundOrderView,
  InboundPageView,
  InboundReceiptRequest,
  RejectInboundRequest,
} from '../inbound';
import { MerchantScoped } from './catalog.commands';
import { command } from './definition';
import { MerchantPageQuery } from './page-query';

export class CreateInboundCommand extends MerchantScoped {
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @NestedType(() => CreateInboundRequest)
  inbound!: CreateInboundRequest;
}

/** Get and cancel name one inbound order of the merchant. */
export class InboundCommand extends MerchantScoped {
  @IsId()
  inbound_id!: number;
}

export class ListInboundQuery extends MerchantPageQuery {}

export class RecordReceiptCommand extends InboundCommand {
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @NestedType(() => InboundReceiptRequest)
  receipt!: InboundReceiptRequest;
}

export class RejectInboundCommand extends InboundCommand {
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @NestedType(() => RejectInboundRequest)
  rejection!: RejectInboundRequest;
}

/** inbound-service's request-reply topics. */
export const InboundCommands = {
  Create: command('inbound.create.v1', CreateInboundCommand, Number, { idempotent: true }),
  Get: command('inbound.get.v1', InboundCommand, InboundOrderView),
  List: command('inbound.list.v1', ListInboundQuery, InboundPageView),
  Cancel: command('inbound.cancel.v1', InboundCommand, InboundOrderView, { idempotent: true }),
  RecordReceipt: command('inbound.receipt.record.v1', RecordReceiptCommand, InboundOrderView, {
    idempotent: true,
  }),
  Reject: command('inbound.reject.v1', RejectInboundCommand, InboundOrderView, {
    idempotent: true,
  }),
};
