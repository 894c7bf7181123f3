import { Controller, Inject } from '@nestjs/common';
import { EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import {
  InboundCommands,
  InboundOrderView,
  InboundPageView,
  Reply,
  WarehouseEvents,
} from '@consign/contracts';
import { CommandLedger, Inbox, handleCommand, handleEvent } from '@consign/messaging';
import { inboundDatabase } from './inbound.database';
import { InboundLifecycle } from './inbound-lifecycle.service';
import { InboundService } from './inbound.service';

/** The consumer name of inbound-service's inbox. */
export const INBOUND_CONSUMER = 'inbound-service';

/** inbound-service's bus interface: thin, validate and delegate. */
@Controller()
export class InboundHandlers {
  constructor(
    private readonly inbounds: InboundService,
    private readonly lifecycle: InboundLifecycle,
    @Inject(inboundDatabase.inbox) private readonly inbox: Inbox,
    @Inject(inboundDatabase.commands) private readonly commands: CommandLedger,
  ) {}

  private get messaging() {
    return { inbox: this.inbox, consumer: INBOUND_CONSUMER };
  }

  @MessagePattern(InboundCommands.Create.topic)
  create(@Payload() payload: unknown): Promise<Reply<number>> {
    return handleCommand(
      InboundCommands.Create,
      payload,
      (c) => this.inbounds.create(c.merchant_id, c.inbound),
      this.commands,
    );
  }

  @MessagePattern(InboundCommands.Get.topic)
  get(@Payload() payload: unknown): Promise<Reply<InboundOrderView>> {
    return handleCommand(InboundCommands.Get, payload, (q) =>
      this.inbounds.get(q.merchant_id, q.inbound_id),
    );
  }

  @MessagePattern(InboundCommands.List.topic)
  list(@Payload() payload: unknown): Promise<Reply<InboundPageView>> {
    return handleCommand(InboundCommands.List, payload, (q) =>
      this.inbounds.list(q.merchant_id, q.page, q.size),
    );
  }

  @MessagePattern(InboundCommands.Cancel.topic)
  cancel(@Payload() payload: unknown): Promise<Reply<InboundOrderView>> {
    return handleCommand(
      InboundCommands.Cancel,
      payload,
      (c) =>
        this.lifecycle.apply(c.merchant_id, c.inbound_id, (m) =>
          this.lifecycle.cancel(m, c.merchant_id, c.inbound_id),
        ),
      this.commands,
    );
  }

  @MessagePattern(InboundCommands.RecordReceipt.topic)
  receipt(@Payload() payload: unknown): Promise<Reply<InboundOrderView>> {
    return handleCommand(
      InboundCommands.RecordReceipt,
      payload,
      (c) =>
        this.lifecycle.apply(c.merchant_id, c.inbound_id, (m) =>
          this.lifecycle.receive(m, c.merchant_id, c.inbound_id, c.receipt),
        ),
      this.commands,
    );
  }

  @MessagePattern(InboundCommands.Reject.topic)
  reject(@Payload() payload: unknown): Promise<Reply<InboundOrderView>> {
    return handleCommand(
      InboundCommands.Reject,
      payload,
      (c) =>
        this.lifecycle.apply(c.merchant_id, c.inbound_id, (m) =>
          this.lifecycle.reject(m, c.merchant_id, c.inbound_id, c.rejection.reason),
        ),
      this.commands,
    );
  }

  @EventPattern(WarehouseEvents.InboundReceived.topic)
  onReceived(@Payload() raw: unknown): Promise<void> {
    return handleEvent(
      this.messaging,
      WarehouseEvents.InboundReceived,
      raw,
      (m, merchantId, event) => this.lifecycle.receive(m, merchantId, event.inbound_id, event),
    );
  }

  @EventPattern(WarehouseEvents.InboundRejected.topic)
  onRejected(@Payload() raw: unknown): Promise<void> {
    return handleEvent(
      this.messaging,
      WarehouseEvents.InboundRejected,
      raw,
      (m, merchantId, event) =>
        this.lifecycle.reject(m, merchantId, event.inbound_id, event.reason),
    );
  }
}
