import { CommonErrorCode } from '../common/reply';
import { CatalogErrorCode } from './catalog.errors';
import { ERROR_CODES, httpStatusOf, isFinalRefusal } from './error-status';
import { InboundErrorCode } from './inbound.errors';
import { LabelErrorCode } from './label.errors';
import { OrderErrorCode } from './order.errors';
import { RatingErrorCode } from './rating.errors';

describe('httpStatusOf', () => {
  it.each([
    [CommonErrorCode.Validation, 400],
    [CommonErrorCode.Unauthorized, 401],
    [CommonErrorCode.Forbidden, 403],
    [CommonErrorCode.NotFound, 404],
    [CatalogErrorCode.ProductNotFound, 404],
    [CommonErrorCode.Conflict, 409],
    [CatalogErrorCode.DuplicateSku, 409],
    [CommonErrorCode.PayloadTooLarge, 413],
    [CommonErrorCode.RateLimited, 429],
    [CommonErrorCode.Internal, 500],
    [CommonErrorCode.Unavailable, 503],
    [CommonErrorCode.Timeout, 504],
    [RatingErrorCode.IncoTermRequired, 400],
    [RatingErrorCode.IncoTermNotSupported, 400],
    [RatingErrorCode.ServiceNotFound, 400],
    [RatingErrorCode.UnsupportedCurrency, 400],
    [RatingErrorCode.WarehouseNotFound, 404],
    [RatingErrorCode.NoZone, 422],
    [RatingErrorCode.OriginNotServed, 422],
    [RatingErrorCode.OverWeightLimit, 422],
    [RatingErrorCode.RestrictedContents, 422],
    [OrderErrorCode.OrderNotFound, 404],
    [OrderErrorCode.InvalidTransition, 409],
    [OrderErrorCode.UnknownReference, 400],
    [InboundErrorCode.InboundNotFound, 404],
    [InboundErrorCode.InvalidTransition, 409],
    [InboundErrorCode.UnknownReference, 400],
    [LabelErrorCode.LabelNotFound, 404],
    [LabelErrorCode.TrackingNotFound, 404],
    [LabelErrorCode.InvalidService, 400],
    [LabelErrorCode.RestrictedContents, 422],
  ])('maps %s to %i', (code, status) => {
    expect(httpStatusOf(code)).toBe(status);
  });

  it('maps every known code', () => {
    expect(ERROR_CODES).toEqual(
      expect.arrayContaining([
        ...Object.values(CommonErrorCode),
        ...Object.values(CatalogErrorCode),
        ...Object.values(OrderErrorCode),
        ...Object.values(InboundErrorCode),
        ...Object.values(RatingErrorCode),
        ...Object.values(LabelErrorCode),
      ]),
    );
    for (const code of ERROR_CODES) {
      expect(httpStatusOf(code)).toBeGreaterThanOrEqual(400);
    }
  });

  it('treats a code it does not know as a bad gateway, not a client error', () => {
    expect(httpStatusOf('someone.else')).toBe(502);
  });
});

describe('isFinalRefusal', () => {
  it.each([
    [OrderErrorCode.OrderNotFound, true],
    [InboundErrorCode.InvalidTransition, true],
    [LabelErrorCode.Voided, true],
    [CommonErrorCode.PayloadTooLarge, true],
    [LabelErrorCode.RestrictedContents, true],
    [CommonErrorCode.Validation, false],
    [CatalogErrorCode.UnknownVariant, false],
    [CommonErrorCode.RateLimited, false],
    [CommonErrorCode.Internal, false],
    [CommonErrorCode.Unavailable, false],
    [CommonErrorCode.Timeout, false],
    [CommonErrorCode.CommandExpired, false],
    ['someone.else', false],
  ])('%s: %s', (code, final) => {
    expect(isFinalRefusal(code)).toBe(final);
  });
});
