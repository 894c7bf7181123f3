import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import {
  CHROMIUM_ARGS,
  Deployment,
  REPO_ROOT,
  chromiumPath,
  startStandalone,
} from '@consign/testing';

describe('API documentation (standalone)', () => {
  let deployment: Deployment;
  let baseUrl: string;

  beforeAll(async () => {
    deployment = await startStandalone();
    baseUrl = deployment.client.baseUrl;
  });

  afterAll(async () => {
    await deployment?.stop();
  });

  it('serves the interactive page at /docs, with its scripts and styles, without an API key', async () => {
    const page = await fetch(`${baseUrl}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('swagger-ui');

    const assets = [...html.matchAll(/(?:src|href)="([^"]+\.(?:js|css))"/g)].map((m) => m[1]);
    expect(assets).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/swagger-ui-bundle\.js$/),
        expect.stringMatching(/swagger-ui-init\.js$/),
        expect.stringMatching(/swagger-ui\.css$/),
      ]),
    );
    for (const asset of assets) {
      const response = await fetch(new URL(asset, `${baseUrl}/docs`));
      expect({ asset, status: response.status }).toEqual({ asset, status: 200 });
      await response.arrayBuffer();
    }
  });

  it("carries out an operation's example from the page, opened at localhost as the start-up log names it", async () => {
    // The gateway listens on 127.0.0.1; the page is opened by another name of it, as a newcomer
    // following `Consign is running at http://localhost:3000` does: its requests must stay on
    // the page's origin, not go to a default host the browser counts as another site.
    const page = `${baseUrl.replace('127.0.0.1', 'localhost')}/docs`;
    const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
    try {
      const tab = await browser.newPage();
      await tab.goto(page, { waitUntil: 'networkidle' });
      await tab.click('button.authorize');
      // The merchant's scheme (`bearer`), not the admin's, operator's or carrier's.
      const scheme = tab.locator('h4', { hasText: /^bearer\s+\(/ });
      const bearer = tab.locator('.auth-container', { has: scheme });
      await bearer.locator('input').fill(deployment.apiKey);
      await bearer.locator('button.authorize').click();
      await tab.click('button.btn-done');
      const create = tab.locator('[id="operations-Products-ProductController_create"]');
      await create.locator('.opblock-summary-control').click();
      await create.locator('button.try-out__btn').click();
      await create.locator('button.execute').click();
      const status = create.locator('.live-responses-table tbody .response-col_status').first();
      await status.waitFor();
      expect((await status.textContent())?.trim()).toBe('200');
    } finally {
      await browser.close();
    }
    const products = await deployment.client.get<{ title: string }[]>('/2025-07/cloud/product/all');
    expect(products.body.data).toEqual([expect.objectContaining({ title: 'Organic tee' })]);
  });

  it('serves the checked-in OpenAPI document at /docs-json', async () => {
    const response = await fetch(`${baseUrl}/docs-json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const document = (await response.json()) as Record<string, unknown>;
    expect(document).toEqual(
      JSON.parse(readFileSync(join(REPO_ROOT, 'docs', 'openapi.json'), 'utf8')),
    );
    expect(document).toMatchObject({ info: { title: 'Consign API' } });
    expect(Object.keys(document.paths as object)).toContain('/2025-07/cloud/product');
  });
});
