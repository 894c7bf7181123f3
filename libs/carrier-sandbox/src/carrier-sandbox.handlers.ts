import { Controller, Inject } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { LabelEvent, LabelVoidedEvent, ShipmentCreatedEvent } from '@consign/contracts';
import { Inbox } from '@consign/platform';
import { carrierSandboxDatabase } from './carrier-sandbox.database';
import { SandboxRunner } from './sandbox-runner';

const CONSUMER = 'carrier-sandbox';

/** The sandbox hears of new labels and orders' shipments like a carrier integration would. */
@Controller()
export class CarrierSandboxHandlers {
  constructor(
    @Inject(carrierSandboxDatabase.inbox) private readonly inbox: Inbox,
    private readonly runner: SandboxRunner,
  ) {}

  @EventPattern(LabelEvent.Created)
  async labelCreated(@Payload() payload: unknown): Promise<void> {
    await this.inbox.consume(CONSUMER, LabelEvent.Created, payload, async (manager, event) => {
      await this.runner.adopt(manager, event.payload);
    });
  }

  /** A voided label: the carrier cancels the shipment and reports nothing more of it. */
  @EventPattern(LabelEvent.Voided)
  async labelVoided(@Payload() payload: unknown): Promise<void> {
    await this.inbox.consume(
      CONSUMER,
      LabelEvent.Voided,
      payload,
      async (manager, event) => {
        await this.runner.cancel(manager, event.payload.label_id);
      },
      { contract: LabelVoidedEvent },
    );
  }

  @EventPattern(LabelEvent.ShipmentCreated)
  async shipmentCreated(@Payload() payload: unknown): Promise<void> {
    await this.inbox.consume(
      CONSUMER,
      LabelEvent.ShipmentCreated,
      payload,
      async (manager, event) => {
        await this.runner.adoptShipment(manager, event.payload);
      },
      { contract: ShipmentCreatedEvent },
    );
  }
}
