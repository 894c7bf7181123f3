import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import {
  ApiClient,
  CHROMIUM_ARGS,
  Deployment,
  REPO_ROOT,
  aLabel,
  aLabelAddress,
  chromiumPath,
  eventually,
} from '@consign/testing';
import { DEPLOYMENT_MODES } from './deployment-modes';

/** Screenshots of the page, kept as test artefacts. */
const ARTEFACTS = join(REPO_ROOT, 'test-artifacts', 'tracking-page');

/** A carrier the sandbox leaves alone, so the test reports the events itself. */
const QUIET = {
  service: { service_code: 'RM-TRACKED48' },
  shipping_address: aLabelAddress({ country_code: 'GB', city: 'Leeds' }),
  shipper_address: aLabelAddress({ first_name: 'Charles', last_name: 'Babbage', city: 'York' }),
};
const T0 = Math.ceil((Date.now() + 3_600_000) / 60_000) * 60_000;
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

describe.each(DEPLOYMENT_MODES)('the public tracking page (%s)', (mode, start) => {
  let deployment: Deployment;
  let api: ApiClient;
  let carrier: ApiClient;

  beforeAll(async () => {
    // Royal Mail is left to the test, which reports its events itself.
    deployment = await start({ env: { CARRIER_SANDBOX_CARRIERS: 'DHL,UPS,USPS,DPD' } });
    api = deployment.client;
    carrier = await deployment.createCarrierKey('RM');
  }, 120_000);

  afterAll(async () => {
    await deployment?.stop();
  });

  const labelWithCheckpoints = async () => {
    const created = await api.post<number>('/2026-05/cloud/label', aLabel(QUIET));
    expect(created.status).toBe(200);
    const id = created.body.data!;
    const number = `RM${id}TP`;
    const events = [
      {
        label_id: id,
        event_code: 'E00',
        description: 'Shipment information received',
        event_time: at(0),
        allocation: { tracking_courier: 'RM', tracking_number: number },
      },
      {
        tracking_number: number,
        event_code: 'E10',
        description: 'Picked up by courier',
        location: 'York, GB',
        event_time: at(60),
      },
      {
        tracking_number: number,
        event_code: 'E80',
        description: 'Delivered to the front door',
        location: 'Leeds, GB',
        event_time: at(1500),
      },
    ];
    expect((await carrier.post('/2026-05/cloud/carrier/RM/events', { events })).status).toBe(200);
    const label = await eventually(
      async () =>
        (await api.get<{ status: string; tracking_url: string }>(`/2026-05/cloud/label/${id}`)).body
          .data!,
      (l) => l.status === 'delivered',
    );
    return { id, number, url: label.tracking_url };
  };

  it('serves status, carrier, tracking number and checkpoints without a key, and no personal data', async () => {
    const { number, url } = await labelWithCheckpoints();
    expect(url).toMatch(/\/track\/l[0-9a-z]+-[0-9a-z]+-[A-Za-z0-9_-]{32}$/);
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toContain(number);
    expect(html).toContain('RM');
    expect(html).toContain('Delivered');
    expect(html).toContain('Picked up by courier');
    expect(html).toContain('Europe/London');
    expect(html).not.toMatch(/<script/i);
    const address = aLabelAddress() as Record<string, string>;
    for (const personal of ['first_name', 'last_name', 'email', 'phone', 'address1', 'address2'])
      if (address[personal]) expect(html).not.toContain(address[personal]);
    expect(html).not.toContain('Babbage');
  });

  it('answers a plain 404 page for a wrong or altered token', async () => {
    const { url } = await labelWithCheckpoints();
    const altered = url.slice(0, -1) + (url.endsWith('A') ? 'B' : 'A');
    for (const wrong of [altered, url.replace(/\/track\/.*/, '/track/nonsense')]) {
      const response = await fetch(wrong);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await response.text()).toContain('Tracking page not found');
    }
  });

  it('works without JavaScript, fits a phone and a desktop, and axe-core finds no violation', async () => {
    const { url } = await labelWithCheckpoints();
    mkdirSync(ARTEFACTS, { recursive: true });
    const browser = await chromium.launch({
      executablePath: chromiumPath(),
      args: CHROMIUM_ARGS,
    });
    try {
      for (const viewport of [
        { width: 390, height: 844 },
        { width: 1280, height: 800 },
      ]) {
        // No script at all: the page must work as served.
        const plain = await browser.newContext({ viewport, javaScriptEnabled: false });
        const page = await plain.newPage();
        expect((await page.goto(url))?.status()).toBe(200);
        await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
          'Parcel tracking',
        );
        await page.screenshot({
          path: join(ARTEFACTS, `${mode}-${viewport.width}x${viewport.height}.png`),
          fullPage: true,
        });
        await plain.close();

        // axe-core, injected by the test (the page itself allows no script).
        const audited = await browser.newContext({ viewport, bypassCSP: true });
        const auditPage = await audited.newPage();
        await auditPage.goto(url);
        // Run in the page (strings: this file is compiled without the DOM's types).
        const overflow = await auditPage.evaluate<number>(
          'document.documentElement.scrollWidth - window.innerWidth',
        );
        expect(overflow).toBeLessThanOrEqual(0);
        await auditPage.evaluate(readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
        const violations = await auditPage.evaluate<string[]>(
          'axe.run().then((r) => r.violations.map((v) => v.id + ": " + v.help))',
        );
        expect(violations).toEqual([]);
        await audited.close();
      }
    } finally {
      await browser.close();
    }
  }, 120_000);
});
