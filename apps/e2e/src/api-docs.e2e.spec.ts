import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Deployment, REPO_ROOT, startStandalone } from '@consign/testing';

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
