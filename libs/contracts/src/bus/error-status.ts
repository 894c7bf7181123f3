import { CommonErrorCode } from '../common/reply';
import { CatalogErrorCode } from './catalog.errors';
import { InboundErrorCode } from './inbound.errors';
import { LabelErrorCode } from './label.errors';
import { OrderErrorCode } from './order.errors';
import { RatingErrorCode } from './rating.errors';

/** Every error code any service can answer. Adding a context adds its enum here. */
export type ErrorCode =
  | CommonErrorCode
  | CatalogErrorCode
  | OrderErrorCode
  | InboundErrorCode
  | RatingErrorCode
  | LabelErrorCode;

export const ERROR_CODES: readonly string[] = [
  ...Object.values(CommonErrorCode),
  ...Object.values(CatalogErrorCode),
  ...Object.values(OrderErrorCode),
  ...Object.values(InboundErrorCode),
  ...Object.values(RatingErrorCode),
  ...Object.values(LabelErrorCode),
];

const KNOWN = new Set<string>(ERROR_CODES);

/** The one place where error codes become HTTP statuses (the envelope's `code` too). */
export function httpStatusOf(code: string): number {
  if (!KNOWN.has(code)) return 502;
  const known = code as ErrorCode;
  switch (known) {
    case CommonErrorCode.Validation:
    case RatingErrorCode.IncoTermRequired:
    case RatingErrorCode.IncoTermNotSupported:
    case RatingErrorCode.ServiceNotFound:
    case RatingErrorCode.UnsupportedCurrency:
    case OrderErrorCode.UnknownReference:
    case InboundErrorCode.UnknownReference:
    case CatalogErrorCode.UnknownVariant:
    case LabelErrorCode.InvalidService:
      return 400;
    case CommonErrorCode.Unauthorized:
      return 401;
    case CommonErrorCode.Forbidden:
      return 403;
    case CommonErrorCode.NotFound:
    case CatalogErrorCode.ProductNotFound:
    case RatingErrorCode.WarehouseNotFound:
    case OrderErrorCode.OrderNotFound:
    case InboundErrorCode.InboundNotFound:
    case LabelErrorCode.LabelNotFound:
    case LabelErrorCode.TrackingNotFound:
    case LabelErrorCode.NoCustomsDeclaration:
      return 404;
    case CommonErrorCode.Conflict:
    case CatalogErrorCode.DuplicateSku:
    case OrderErrorCode.InvalidTransition:
    case InboundErrorCode.InvalidTransition:
    case LabelErrorCode.NotAllocated:
    case LabelErrorCode.AlreadyScanned:
      return 409;
    case LabelErrorCode.Voided:
      return 410;
    case CommonErrorCode.PayloadTooLarge:
      return 413;
    // A valid request the chosen service cannot carry (freight; order candidates carry these too).
    case RatingErrorCode.OriginMismatch:
    case RatingErrorCode.NoService:
    case RatingErrorCode.OriginNotServed:
    case RatingErrorCode.NoZone:
    case RatingErrorCode.RestrictedContents:
    case RatingErrorCode.OverWeightLimit:
    case RatingErrorCode.AmountOutOfRange:
    case LabelErrorCode.RestrictedContents:
    case CommonErrorCode.CommandReused:
      return 422;
    case CommonErrorCode.RateLimited:
      return 429;
    case CommonErrorCode.Internal:
      return 500;
    case CommonErrorCode.Unavailable:
      return 503;
    case CommonErrorCode.Timeout:
    case CommonErrorCode.CommandExpired:
      return 504;
    default:
      return assertNever(known);
  }
}

function assertNever(code: never): never {
  throw new Error(`unmapped error code ${String(code)}`);
}

/**
 * Whether a failure is a final answer that a retry of the same command (the same Idempotency-Key)
 * gets again, as Stripe keeps them: a refusal by the service's rules (404, 409, 410, 413, 422).
 * Not an invalid request (400: the key may carry a corrected one), nor an outcome that a retry may
 * change (429, 5xx: the retry runs again, carried out at most once).
 */
export function isFinalRefusal(code: string): boolean {
  const status = httpStatusOf(code);
  return status > 400 && status < 500 && status !== 429;
}
