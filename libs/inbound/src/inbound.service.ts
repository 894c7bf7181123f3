import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  CatalogTopic,
  CommonErrorCode,
  CreateInboundRequest,
  InboundErrorCode,
  InboundOrderView,
  InboundPageView,
} from '@consign/contracts';
import { CommandBus } from '@consign/bus';
import { CommandLedger, Outbox } from '@consign/messaging';
import { DomainError } from '@consign/core';
import { inboundDatabase } from './inbound.database';
import { InboundRepository } from './inbound.repository';
import { addInboundStatusChanged } from './inbound-status-events';
import { RatingClient } from '@consign/rating-client';

/** Creating and reading inbound orders. Receipts and other changes are InboundLifecycle's. */
@Injectable()
export class InboundService {
  constructor(
    @Inject(inboundDatabase.dataSource) private readonly dataSource: DataSource,
    @Inject(inboundDatabase.commands) private readonly commands: CommandLedger,
    private readonly reference: RatingClient,
    private readonly bus: CommandBus,
    @Inject(inboundDatabase.outbox) private readonly outbox: Outbox,
    private readonly inbounds: InboundRepository,
  ) {}

  /**
   * A new inbound order is Pending with nothing received. Its warehouse must be one the merchant
   * may use (rating-service) and each sku_number one of the merchant's variants (catalog-service);
   * both are asked before the transaction opens. Each item keeps its variant id, so a receipt
   * puts stock on hand without asking again.
   */
  async create(merchantId: number, request: CreateInboundRequest): Promise<number> {
    await this.checkWarehouse(merchantId, request.warehouse_code);
    const variantIds = await this.resolveItems(merchantId, request);
    const id = await this.commands.transaction(async (manager) => {
      const inboundId = await this.inbounds.insert(manager, merchantId, request, variantIds);
      await addInboundStatusChanged(
        this.outbox,
        this.inbounds,
        manager,
        merchantId,
        inboundId,
        null,
      );
      return inboundId;
    });
    return id;
  }

  async get(merchantId: number, inboundId: number): Promise<InboundOrderView> {
    const view = await this.inbounds.view(this.dataSource, merchantId, inboundId);
    if (!view) throw inboundNotFound();
    return view;
  }

  async list(merchantId: number, page: number, size: number): Promise<InboundPageView> {
    const [total, list] = await Promise.all([
      this.inbounds.count(this.dataSource, merchantId),
      this.inbounds.page(this.dataSource, merchantId, page, size),
    ]);
    return { page, size, total, list };
  }

  private async checkWarehouse(merchantId: number, code: string): Promise<void> {
    const warehouses = await this.reference.warehouses(merchantId);
    if (!warehouses.some((w) => w.code === code))
      throw new DomainError(
        InboundErrorCode.UnknownReference,
        `Validation failed: warehouse_code ${code} is not a warehouse you can use (known: ${warehouses.map((w) => w.code).join(', ') || 'none'})`,
      );
  }

  private async resolveItems(merchantId: number, request: CreateInboundRequest): Promise<number[]> {
    const skuNumbers = [...new Set(request.items.map((item) => item.sku_number))];
    const reply = await this.bus.request(
      CatalogTopic.ResolveVariants,
      { merchant_id: merchantId, sku_numbers: skuNumbers },
      { key: String(merchantId) },
    );
    if (!reply.ok) {
      const transport = [CommonErrorCode.Timeout, CommonErrorCode.Unavailable] as string[];
      throw new DomainError(
        transport.includes(reply.error.code) ? CommonErrorCode.Unavailable : reply.error.code,
        reply.error.message,
      );
    }
    const variantOf = new Map(reply.data.map((v) => [v.sku_number, v.variant_id]));
    const problems: string[] = [];
    const seen = new Map<number, number>();
    const ids = request.items.map((item, index) => {
      const id = variantOf.get(item.sku_number);
      if (id === undefined) {
        problems.push(`items[${index}].sku_number ${item.sku_number} is not one of your variants`);
        return 0;
      }
      const first = seen.get(id);
      if (first !== undefined)
        problems.push(`items[${index}].sku_number names the same variant as items[${first}]`);
      else seen.set(id, index);
      return id;
    });
    if (problems.length)
      throw new DomainError(
        InboundErrorCode.UnknownReference,
        `Validation failed: ${problems.join('; ')}`,
      );
    return ids;
  }
}

export function inboundNotFound(): DomainError {
  return new DomainError(InboundErrorCode.InboundNotFound, 'Inbound order not found.');
}
