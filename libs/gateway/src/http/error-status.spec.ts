import { CatalogErrorCode, CommonErrorCode, LabelErrorCode } from '@consign/contracts';
import { httpStatusOf } from './error-status';

describe('httpStatusOf', () => {
  it.each([
    [CommonErrorCode.Validation, 400],
    [CommonErrorCode.Unauthorized, 401],
    [CommonErrorCode.Forbidden, 403],
    [CommonErrorCode.NotFound, 404],
    [CatalogErrorCode.ProductNotFound, 404],
    [LabelErrorCode.LabelNotFound, 404],
    [LabelErrorCode.TrackingNotFound, 404],
    [CommonErrorCode.Conflict, 409],
    [CatalogErrorCode.DuplicateSku, 409],
    [CommonErrorCode.PayloadTooLarge, 413],
    [CommonErrorCode.RateLimited, 429],
    [CommonErrorCode.Internal, 500],
    [CommonErrorCode.Unavailable, 503],
    [CommonErrorCode.Timeout, 504],
  ])('maps %s to %i', (code, status) => {
    expect(httpStatusOf(code)).toBe(status);
  });

  it('maps every known code', () => {
    for (const code of [
      ...Object.values(CommonErrorCode),
      ...Object.values(CatalogErrorCode),
      ...Object.values(LabelErrorCode),
    ]) {
      expect(httpStatusOf(code)).toBeGreaterThanOrEqual(400);
    }
  });

  it('treats a code it does not know as a bad gateway, not a client error', () => {
    expect(httpStatusOf('someone.else')).toBe(502);
  });
});
