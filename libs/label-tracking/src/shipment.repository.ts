import { Injectable } from '@nestjs/common';
import { Sql } from '@consign/database';
import { isoUtc } from './sql-time';

const SHIPMENT = '"labels"."shipment"';
const TRACKING = '"labels"."tracking"';

/** A delivered shipment, with whether every shipment of its order now is. */
export interface DeliveredShipment {
  shipment_id: number;
  order_id: number;
  merchant_id: number;
  tracking_courier: string;
  tracking_number: string;
  delivered_time: string;
  all_delivered: boolean;
}

/** SQL of the shipment aggregate: an order's shipment is one of its parcels (labels.tracking). */
@Injectable()
export class ShipmentRepository {
  /** Records the order's shipment with this parcel; answers its id, or undefined if recorded before. */
  async insert(
    sql: Sql,
    shipment: {
      merchantId: number;
      orderId: number;
      trackingId: number;
      packages: number;
      shippedAt: Date;
    },
  ): Promise<number | undefined> {
    const [row]: { id: number }[] = await sql.query(
      `INSERT INTO ${SHIPMENT} (merchant_id, order_id, tracking_id, packages, shipped_at)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT ON CONSTRAINT "uq_shipment_order_id_tracking_id" DO NOTHING RETURNING id`,
      [
        shipment.merchantId,
        shipment.orderId,
        shipment.trackingId,
        shipment.packages,
        shipment.shippedAt,
      ],
    );
    return row?.id;
  }

  /** The orders with a shipment among these parcels. */
  async ordersShippedWith(sql: Sql, trackingIds: number[]): Promise<number[]> {
    const orders: { order_id: number }[] = await sql.query(
      `SELECT DISTINCT order_id FROM ${SHIPMENT} WHERE tracking_id = ANY($1::bigint[])`,
      [trackingIds],
    );
    return orders.map((o) => o.order_id);
  }

  /** Locks every shipment of these orders, in id order. */
  async lockOrders(sql: Sql, orderIds: number[]): Promise<void> {
    await sql.query(
      `SELECT id FROM ${SHIPMENT} WHERE order_id = ANY($1::bigint[]) ORDER BY id FOR UPDATE`,
      [orderIds],
    );
  }

  /** The shipments of these parcels that are delivered, by id. */
  async delivered(sql: Sql, trackingIds: number[]): Promise<DeliveredShipment[]> {
    return sql.query(
      `SELECT s.id AS shipment_id, s.order_id, s.merchant_id, t.tracking_courier, t.tracking_number,
              ${isoUtc('t.delivered_time')} AS delivered_time,
              NOT EXISTS (
                SELECT 1 FROM ${SHIPMENT} o JOIN ${TRACKING} ot ON ot.id = o.tracking_id
                 WHERE o.order_id = s.order_id AND o.merchant_id = s.merchant_id
                   AND ot.delivered_time IS NULL) AS all_delivered
         FROM ${SHIPMENT} s JOIN ${TRACKING} t ON t.id = s.tracking_id
        WHERE s.tracking_id = ANY($1::bigint[]) AND t.delivered_time IS NOT NULL
        ORDER BY s.id`,
      [trackingIds],
    );
  }
}
