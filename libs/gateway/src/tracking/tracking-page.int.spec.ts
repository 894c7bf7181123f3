import { DataSource } from 'typeorm';
import { TrackingSecretRepository } from './tracking-secret.repository';
import { destinationTimeZone } from './destination-time-zone';
import { renderNotFoundPage, renderTrackingPage } from './tracking-page';
import { TrackingTokenService } from './tracking-token.service';

/** The gateway's tracking_secret table, in memory. */
function fakeDataSource(): DataSource {
  let secret: string | undefined;
  return {
    query: async (sql: string, params?: unknown[]) => {
      if (sql.startsWith('INSERT')) secret ??= params![0] as string;
      return sql.startsWith('SELECT') ? [{ secret }] : [];
    },
  } as unknown as DataSource;
}

describe('tracking-page tokens', () => {
  it('name their record, and refuse any token not made with the key', async () => {
    const tokens = new TrackingTokenService(fakeDataSource(), new TrackingSecretRepository());
    await tokens.onModuleInit();
    const token = tokens.tokenFor('order', 12, 3456);
    expect(tokens.parse(token)).toEqual({ kind: 'order', merchantId: 12, id: 3456 });
    expect(tokens.parse(tokens.tokenFor('label', 1, 1))).toEqual({
      kind: 'label',
      merchantId: 1,
      id: 1,
    });
    // Another record with the same signature, a changed signature, another key: all refused.
    const signature = token.split('-').at(-1)!;
    expect(tokens.parse(`o${(12).toString(36)}-${(3457).toString(36)}-${signature}`)).toBeNull();
    expect(tokens.parse(token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A'))).toBeNull();
    const other = new TrackingTokenService(fakeDataSource(), new TrackingSecretRepository());
    await other.onModuleInit();
    expect(other.parse(token)).toBeNull();
    expect(tokens.parse('nonsense')).toBeNull();
  });
});

describe('the tracking page', () => {
  it('escapes what carriers wrote and has no script', () => {
    const html = renderTrackingPage({
      subject: 'Parcel',
      status: 'In transit',
      timeZone: 'Europe/Berlin',
      deliveredTime: null,
      shipments: [
        {
          carrier: 'DHL',
          trackingNumber: '<b>1</b>',
          checkpoints: [
            {
              time: '2026-05-01T22:30:00.000Z',
              description: '<script>alert(1)</script>',
              details: 'Leipzig & Halle',
              status: 'in_transit',
            },
          ],
        },
      ],
    });
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('&lt;script&gt;');
    expect(html).toContain('&lt;b&gt;1&lt;/b&gt;');
    expect(html).toContain('Leipzig &amp; Halle');
    // 22:30 UTC is half past midnight the next day in Berlin (summer time).
    expect(html).toContain('2 May 2026, 00:30');
    expect(renderNotFoundPage()).toContain('Tracking page not found');
  });

  it("shows times in the destination country's main zone", () => {
    expect(destinationTimeZone('US')).toBe('America/New_York');
    expect(destinationTimeZone('JP')).toBe('Asia/Tokyo');
    expect(destinationTimeZone('gb')).toBe('Europe/London');
    expect(destinationTimeZone(null)).toBe('UTC');
    expect(destinationTimeZone('XX')).toBe('UTC');
  });
});
