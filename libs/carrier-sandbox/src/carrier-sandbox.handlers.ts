import { Controller, Inject } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { LabelEvents } from '@consign/contracts';
import { Inbox } from '@consign/messaging';
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

  @EventPattern(LabelEvents.Created.topic)
  async labelCreated(@Payload() payload: unknown): Promise<void> {
    await this.inbox.consume(
      CONSUMER,
      LabelEvents.Created.topic,
      payload,
      async (manager, event) => {
        await this.runner.adopt(manager, event.payload);
      },
      { contract: LabelEvents.Created.payload },
    );
  }

  /** A voided label: the carrier cancels the shipment and reports nothing more of it. */
  @EventPattern(LabelEvents.Voided.topic)
  async labelVoided(@Payload() payload: unknown): Promise<void> {
    await this.inbox.consume(
      CONSUMER,
      LabelEvents.Voided.topic,
      payload,
      async (manager, event) => {
        await this.runner.cancel(manager, event.payload.label_id);
      },
      { contract: LabelEvents.Voided.payload },
    );
  }

  @EventPattern(LabelEvents.ShipmentCreated.topic)
  async shipmentCreated(@Payload() payload: unknown): Promise<void> {
    await this.inbox.consume(
      CONSUMER,
      LabelEvents.ShipmentCreated.topic,
      payload,
      async (manager, event) => {
        await this.runner.adoptShipment(manager, event.payload);
      },
      { contract: LabelEvents.ShipmentCreated.payload },
    );
  }
}
