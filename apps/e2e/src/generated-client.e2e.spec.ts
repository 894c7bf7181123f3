import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import createClient from 'openapi-fetch';
import { conformingFetch, Deployment, REPO_ROOT } from '@consign/testing';
import type { components, paths } from './consign-api.generated';
import { DEPLOYMENT_MODES } from './deployment-modes';

type CreateProductRequest = components['schemas']['CreateProductRequest'];

/** The README's quickstart body, typed by the generated client: a field it misnames fails `tsc`. */
const QUICKSTART_PRODUCT: CreateProductRequest = {
  title: 'Organic tee',
  currency: 'EUR',
  variants: [{ sku: 'TEE-S', title: 'S', retail_price: 24.9, weight_unit: 'kg', unit: 'pcs' }],
};

/** The JSON after `-d` in the README's quickstart `curl`. */
function readmeQuickstartBody(): unknown {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const match = /curl -s -X POST localhost:3000\/2025-07\/cloud\/product[\s\S]*?-d '([^']+)'/.exec(
    readme,
  );
  if (!match) throw new Error('README.md: no quickstart curl creating a product');
  return JSON.parse(match[1]);
}

// A client generated from docs/openapi.json by a standard generator (openapi-typescript types,
// openapi-fetch) runs the README's quickstart: what an integrator does first.
describe.each(DEPLOYMENT_MODES)(
  'a client generated from the OpenAPI document (%s)',
  (_mode, start) => {
    let deployment: Deployment;
    let client: ReturnType<typeof createClient<paths>>;

    beforeAll(async () => {
      deployment = await start();
      client = createClient<paths>({
        baseUrl: deployment.client.baseUrl,
        headers: { authorization: `Bearer ${deployment.apiKey}` },
        // Its exchanges are validated by Stoplight Prism too, as the ApiClient's are.
        fetch: conformingFetch(),
      });
    });

    afterAll(async () => {
      await deployment?.stop();
    });

    it('sends the README quickstart body', () => {
      expect(QUICKSTART_PRODUCT).toEqual(readmeQuickstartBody());
    });

    it('creates the quickstart product and reads it back, typed end to end', async () => {
      const created = await client.POST('/2025-07/cloud/product', { body: QUICKSTART_PRODUCT });
      expect(created.error).toBeUndefined();
      expect(created.response.status).toBe(200);
      const id: number = created.data!.data;
      expect(created.data).toEqual({ code: 200, message: 'success', data: expect.any(Number) });

      const read = await client.GET('/2025-07/cloud/product/{product_id}', {
        params: { path: { product_id: id } },
      });
      expect(read.response.status).toBe(200);
      const product = read.data!.data;
      expect(product).toMatchObject({ id, title: 'Organic tee', currency: 'EUR' });
      expect(product.variants?.map((variant) => variant.sku)).toEqual(['TEE-S']);
    });

    it('gets a failure as the typed error envelope', async () => {
      const missing = await client.GET('/2025-07/cloud/product/{product_id}', {
        params: { path: { product_id: 999_999_999 } },
      });
      expect(missing.data).toBeUndefined();
      expect(missing.response.status).toBe(404);
      expect(missing.error).toEqual({ code: 404, message: expect.any(String), data: null });
    });
  },
);
