import {
  isCalendarDate,
  isCountryCode,
  isCurrencyCode,
  isEmailAddress,
  isIsoDateTime,
} from './formats';

describe('formats', () => {
  it.each<[unknown, boolean]>([
    ['US', true],
    ['GB', true],
    ['us', false],
    ['USA', false],
    ['U', false],
    ['', false],
    ['Ü1', false],
    [12, false],
    [null, false],
  ])('isCountryCode(%p) is %p', (value, expected) => {
    expect(isCountryCode(value)).toBe(expected);
  });

  it.each<[unknown, boolean]>([
    ['USD', true],
    ['EUR', true],
    ['usd', false],
    ['US', false],
    ['USDT', false],
    ['US1', false],
    [840, false],
  ])('isCurrencyCode(%p) is %p', (value, expected) => {
    expect(isCurrencyCode(value)).toBe(expected);
  });

  it.each<[unknown, boolean]>([
    ['ada@example.com', true],
    ['a@b', true],
    ['ada.example.com', false],
    ['ada@', false],
    ['@example.com', false],
    ['ada@ex@ample.com', false],
    ['ada @example.com', false],
    ['', false],
    [undefined, false],
  ])('isEmailAddress(%p) is %p', (value, expected) => {
    expect(isEmailAddress(value)).toBe(expected);
  });

  it.each<[unknown, boolean]>([
    ['2025-08-15', true],
    ['2024-02-29', true],
    ['2000-02-29', true],
    ['0004-02-29', true],
    // PostgreSQL has no year 0 (it once answered 500 for an inbound expected on 0000-01-01).
    ['0000-02-29', false],
    ['0001-01-01', true],
    ['1900-02-29', false],
    ['2025-02-29', false],
    ['2025-02-30', false],
    ['2025-04-31', false],
    ['2025-13-01', false],
    ['2025-00-01', false],
    ['2025-01-00', false],
    ['2025-1-01', false],
    ['2025-01-01T00:00:00Z', false],
    [' 2025-01-01', false],
    [20250101, false],
  ])('isCalendarDate(%p) is %p', (value, expected) => {
    expect(isCalendarDate(value)).toBe(expected);
  });

  it.each<[unknown, boolean]>([
    ['2026-05-20T09:30:00Z', true],
    ['2026-05-20T09:30:00.5Z', true],
    ['2026-05-20T09:30:00-05:00', true],
    ['2026-05-20T09:30:00', true],
    ['2026-05-20', false],
    ['2026-05-20 09:30:00Z', false],
    ['2026-02-30T09:30:00Z', false],
    ['2026-05-20T24:30:00Z', false],
    ['2026-05-20T09:30:00+25:00', false],
    ['now', false],
    [Date.UTC(2026, 4, 20), false],
    // Up to the year 9999 in UTC (PostgreSQL reads no five-digit year); from the year 100, as
    // validator.js' strict ISO 8601 reads dates.
    ['0100-01-01T00:00:00Z', true],
    ['0099-06-01T00:00:00Z', false],
    ['9999-12-31T23:59:59.999Z', true],
    ['9999-12-31T23:59:59-14:00', false],
    // ISO 8601, but not read by JavaScript's Date (it once answered 500 from a carrier).
    ['2026-05-20T09:30:00,5Z', false],
  ])('isIsoDateTime(%p) is %p', (value, expected) => {
    expect(isIsoDateTime(value)).toBe(expected);
  });
});
