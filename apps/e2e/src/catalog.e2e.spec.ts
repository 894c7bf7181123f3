import { ApiClient, Deployment, aProduct, aVariant } from '@consign/testing';
import { DEPLOYMENT_MODES } from './deployment-modes';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;

describe.each(DEPLOYMENT_MODES)('product catalogue (%s)', (_mode, start) => {
  let deployment: Deployment;
  let api: ApiClient;

  beforeAll(async () => {
    deployment = await start();
    api = deployment.client;
  });

  afterAll(async () => {
    await deployment?.stop();
  });

  it('creates a product with two variants and reads every field back', async () => {
    const body = aProduct();
    const created = await api.post<number>('/2025-07/cloud/product', body);
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ code: 200, data: expect.any(Number) });

    const read = await api.get<Record<string, unknown>>(
      `/2025-07/cloud/product/${created.body.data}`,
    );
    expect(read.status).toBe(200);
    const product = read.body.data!;
    expect(product).toMatchObject({
      id: created.body.data,
      title: body.title,
      body_html: body.body_html,
      vendor: body.vendor,
      currency: body.currency,
      category: body.category,
      source: body.source,
      tags: body.tags,
      options: body.options,
      images: body.images,
    });
    expect(product.created_time).toMatch(ISO_UTC);
    expect(product.updated_time).toMatch(ISO_UTC);
    const variants = product.variants as Record<string, unknown>[];
    expect(variants).toHaveLength(2);
    (body.variants as Record<string, unknown>[]).forEach((sent, i) => {
      expect(variants[i]).toMatchObject({
        ...sent,
        id: expect.any(Number),
        requires_shipping: true,
      });
      expect(variants[i].created_time).toMatch(ISO_UTC);
    });
    expect(variants[0].id).not.toBe(variants[1].id);
  });

  it('keeps Number(12,2) values exact and honours requires_shipping false', async () => {
    const variant = aVariant({
      retail_price: 9999999999.99,
      compare_at_price: 0.1,
      weight: 0.07,
      requires_shipping: false,
    });
    const created = await api.post<number>(
      '/2025-07/cloud/product',
      aProduct({ variants: [variant] }),
    );
    const read = await api.get<{ variants: Record<string, unknown>[] }>(
      `/2025-07/cloud/product/${created.body.data}`,
    );
    expect(read.body.data!.variants[0]).toMatchObject({
      retail_price: 9999999999.99,
      compare_at_price: 0.1,
      weight: 0.07,
      requires_shipping: false,
    });
  });

  it('lists all products of the merchant, newest first', async () => {
    const first = await api.post<number>('/2025-07/cloud/product', aProduct());
    const second = await api.post<number>('/2025-07/cloud/product', aProduct({ variants: [] }));
    const all = await api.get<{ id: number; variants: unknown[] }[]>('/2025-07/cloud/product/all');
    expect(all.status).toBe(200);
    const ids = all.body.data!.map((p) => p.id);
    expect(ids.indexOf(second.body.data!)).toBeLessThan(ids.indexOf(first.body.data!));
    expect(all.body.data!.find((p) => p.id === second.body.data)!.variants).toEqual([]);
  });

  it('answers 400 naming each offending field, and creates nothing', async () => {
    const before = (await api.get<unknown[]>('/2025-07/cloud/product/all')).body.data!.length;
    const response = await api.post('/2025-07/cloud/product', {
      title: 'x'.repeat(257),
      currency: 'usd',
      variants: [aVariant({ sku: 's'.repeat(129), retail_price: 1.005, weight_unit: 'stone' })],
    });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe(400);
    expect(response.body.data).toBeNull();
    for (const field of [
      'title',
      'currency',
      'variants[0].sku',
      'variants[0].retail_price',
      'variants[0].weight_unit',
    ]) {
      expect(response.body.message).toContain(field);
    }
    expect((await api.get<unknown[]>('/2025-07/cloud/product/all')).body.data!.length).toBe(before);
  });

  it('refuses a sku the merchant already uses with 409', async () => {
    const sku = `DUP-${Date.now()}`;
    expect(
      (await api.post('/2025-07/cloud/product', aProduct({ variants: [aVariant({ sku })] })))
        .status,
    ).toBe(200);
    const again = await api.post(
      '/2025-07/cloud/product',
      aProduct({ variants: [aVariant({ sku })] }),
    );
    expect(again.status).toBe(409);
    expect(again.body.message).toContain(sku);
  });

  it('answers 404 for an unknown product and 400 for a malformed id', async () => {
    expect((await api.get('/2025-07/cloud/product/987654321')).body).toEqual({
      code: 404,
      message: 'Product not found.',
      data: null,
    });
    const bad = await api.get('/2025-07/cloud/product/12abc');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('product_id');
  });

  it('applies the house rules of the HTTP interface', async () => {
    const malformed = await api.request('POST', '/2025-07/cloud/product', '{"title":');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ code: 400, data: null });
    expect(malformed.body.message).toMatch(/malformed json/i);

    const tooLarge = await api.sendOversized(
      '/2025-07/cloud/product',
      JSON.stringify({ title: 'x'.repeat(2_000_000) }),
    );
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body).toMatchObject({ code: 413, data: null });

    const notJson = await api.request('POST', '/2025-07/cloud/product', 'title=x', {
      'content-type': 'text/plain',
    });
    expect(notJson.status).toBe(415);

    const unknownRoute = await api.get('/2025-07/cloud/nothing-here');
    expect(unknownRoute.body).toMatchObject({ code: 404, data: null });
    expect(unknownRoute.status).toBe(404);

    expect((await api.withKey(undefined).get('/2025-07/cloud/product/all')).body).toMatchObject({
      code: 401,
      data: null,
    });
    expect(
      (await api.withKey('csk_not_a_real_key_at_all').get('/2025-07/cloud/product/all')).status,
    ).toBe(401);
  });

  it("hides one merchant's products from another (404, not 403)", async () => {
    const created = await api.post<number>('/2025-07/cloud/product', aProduct());
    const other = await deployment.createMerchant('Other merchant');
    const foreign = await other.get(`/2025-07/cloud/product/${created.body.data}`);
    expect(foreign.status).toBe(404);
    expect((await other.get<unknown[]>('/2025-07/cloud/product/all')).body.data).toEqual([]);
    const own = await other.post<number>('/2025-07/cloud/product', aProduct());
    expect(own.status).toBe(200);
    expect((await api.get(`/2025-07/cloud/product/${own.body.data}`)).status).toBe(404);
  });
});
