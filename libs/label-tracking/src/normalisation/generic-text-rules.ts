import { CheckpointStatus as S } from '@consign/contracts';
import { TextRule } from './carrier-table';

/**
 * The fallback for a code no carrier table knows: common English carrier wording. First match
 * wins, so the specific comes before the general — a failed attempt mentions delivery, a damaged
 * delivery mentions "delivered", a return mentions a sender.
 */
export const GENERIC_TEXT_RULES: readonly TextRule[] = [
  {
    pattern: /\b(destroyed|disposed( of)?|disposal|abandoned|confiscated|dead letter)\b/i,
    status: S.Disposed,
  },
  {
    pattern:
      /\b(delivered\b.*\b(damaged|damage|partial(ly)?|incomplete|short|exception)|partial(ly)? delivered|partial delivery)\b/i,
    status: S.DeliveredWithException,
  },
  {
    pattern:
      /\b(delivery attempt(ed)?|attempted delivery|attempt(ed)? to deliver|not home|nobody (was )?(at )?home|no one (was )?(at home|available)|(recipient|receiver|consignee) (was )?(not available|unavailable|absent)|not delivered|could not be delivered|unable to deliver|missed delivery|closed on arrival|business closed|no access|notice left|we missed you)\b/i,
    status: S.DeliveryAttemptFailed,
  },
  {
    pattern:
      /\b(available for (pickup|collection)|ready for (pickup|collection)|awaiting (customer )?(pickup|collection)|held (for collection|at (a |the )?(post office|pickup point|parcel ?shop|access point|locker))|(in|at) (a |the )?(parcel ?locker|pickup point|parcel ?shop))\b/i,
    status: S.AvailableForPickup,
  },
  {
    pattern:
      /\b(out for delivery|with (the )?delivery (courier|driver)|on (its|the) way to (you|the recipient)|loaded (on|onto) (the )?delivery vehicle)\b/i,
    status: S.OutForDelivery,
  },
  {
    pattern:
      /\b(return(ed|ing)? to (the )?(sender|shipper|origin)|customs (hold|delay|inspection|issue|query)|(detained|stopped) (by|at|in) customs|clearance delay|on hold|held|exception|damaged|lost|missing|(bad|wrong|incorrect|insufficient|incomplete) address|address (problem|unknown|incomplete)|refused|undeliverable|mis-?sent|mis-?sorted|mis-?routed|(consignee|recipient|addressee) moved)\b/i,
    status: S.Exception,
  },
  {
    pattern:
      /\b(delivered|delivery (completed|successful)|(collected|picked up) by (the )?(recipient|consignee|addressee|customer))\b/i,
    status: S.Delivered,
  },
  {
    pattern:
      /\b(label (created|printed)|shipment (information|info|data) received|information received|electronic (shipping )?(info|information|notification)|pre-?shipment|pre-?advice|sender preparing|awaiting (the )?(item|parcel|package))\b/i,
    status: S.InformationReceived,
  },
  {
    pattern:
      /\b(in transit|picked up|collected|pickup scan|accepted|arrived|arrival|departed|departure|processed|processing|origin scan|sorted|sorting|forwarded|transferred|en route|on the way|in the network|clearance (complete|completed|processing)|cleared|released|received (at|by|into))\b/i,
    status: S.InTransit,
  },
];
