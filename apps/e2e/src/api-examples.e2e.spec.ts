import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiClient, ApiResponse, Deployment, REPO_ROOT, eventually } from '@consign/testing';
import { DEPLOYMENT_MODES } from './deployment-modes';

interface DocumentedOperation {
  requestBody?: { content: Record<string, { example?: unknown }> };
}

const document = JSON.parse(readFileSync(join(REPO_ROOT, 'docs', 'openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, DocumentedOperation>>;
};

/** An operation's request example in docs/openapi.json: what Swagger UI's "Try it out" sends. */
function exampleOf(method: 'post' | 'put', path: string): Record<string, unknown> {
  const content = document.paths[path]?.[method]?.requestBody?.content['application/json'];
  if (content?.example === undefined)
    throw new Error(`docs/openapi.json has no request example for ${method} ${path}`);
  return content.example as Record<string, unknown>;
}

const V1 = '/2025-07/cloud';
const V2 = '/2026-05/cloud';

/**
 * The request examples of the API document, sent as they are to a fresh platform in the order a
 * newcomer would try them: each is carried out (200), not refused for a rule the example breaks
 * (a service that does not ship from the example's country, contents it may not carry). Path
 * parameters are the ids the earlier examples created.
 */
describe.each(DEPLOYMENT_MODES)("the API document's request examples (%s)", (_mode, start) => {
  let deployment: Deployment;
  let merchant: ApiClient;
  let operator: ApiClient;

  beforeAll(async () => {
    deployment = await start();
    merchant = deployment.client;
    operator = await deployment.createOperatorKey();
  });

  afterAll(async () => {
    await deployment?.stop();
  });

  const carriedOut = async <T>(
    what: string,
    response: Promise<ApiResponse<T>>,
  ): Promise<T | null> => {
    const { status, body } = await response;
    expect({ what, status, message: body.message }).toEqual({
      what,
      status: 200,
      message: 'success',
    });
    return body.data;
  };

  it('price, order, receive and ship the catalogue as documented', async () => {
    await carriedOut(
      'create a product',
      merchant.post(`${V1}/product`, exampleOf('post', `${V1}/product`)),
    );

    const calculateOrder = exampleOf('put', `${V1}/calculate/order`);
    const quotes = await carriedOut(
      'calculate an order',
      merchant.put<{ code: number; message: string; warehouse_code: string }[]>(
        `${V1}/calculate/order`,
        calculateOrder,
      ),
    );
    // Every service is quoted; the example's own warehouse gets at least one price.
    const [origin] = calculateOrder.origin_addresses as { warehouse_code: string }[];
    expect(quotes?.filter((quote) => quote.code === 200).map((q) => q.warehouse_code)).toContain(
      origin.warehouse_code,
    );
    await carriedOut(
      'calculate freight',
      merchant.put(`${V1}/calculate/freight`, exampleOf('put', `${V1}/calculate/freight`)),
    );

    const inbound = `${V1}/inbound/{inbound_id}`;
    const received = await carriedOut<number>(
      'announce an inbound delivery',
      merchant.post(`${V1}/inbound`, exampleOf('post', `${V1}/inbound`)),
    );
    await carriedOut(
      'record its receipt',
      operator.post(`${V1}/inbound/${received}/receipt`, exampleOf('post', `${inbound}/receipt`)),
    );
    // The received units are on hand (in distributed mode, once catalog took the receipt's event).
    const stocked = await eventually(
      () => merchant.get<{ list: { available: number }[] }>(`${V1}/inventory`),
      ({ body }) => (body.data?.list ?? []).some((row) => row.available > 0),
    );
    expect(stocked.body.data?.list).toHaveLength(1);
    const refused = await carriedOut<number>(
      'announce another',
      merchant.post(`${V1}/inbound`, exampleOf('post', `${V1}/inbound`)),
    );
    await carriedOut(
      'reject it',
      operator.post(`${V1}/inbound/${refused}/reject`, exampleOf('post', `${inbound}/reject`)),
    );

    const order = `${V1}/order/{order_id}`;
    const id = await carriedOut<number>(
      'create an order',
      merchant.post(`${V1}/order`, exampleOf('post', `${V1}/order`)),
    );
    await carriedOut(
      'hold it',
      merchant.post(`${V1}/order/${id}/hold`, exampleOf('post', `${order}/hold`)),
    );
    await carriedOut('release it', merchant.post(`${V1}/order/${id}/release`));
    // Released, the order asks for its stock again (Draft), then is Approved.
    const released = await eventually(
      () => merchant.get<{ status: string }>(`${V1}/order/${id}`),
      ({ body }) => body.data?.status !== 'Draft',
    );
    expect(released.body.data?.status).toBe('Approved');
    await carriedOut('pick it', operator.post(`${V1}/order/${id}/pick`));
    const shipped = await carriedOut<{ status: string }>(
      'ship it',
      operator.post(`${V1}/order/${id}/ship`, exampleOf('post', `${order}/ship`)),
    );
    expect(shipped?.status).toBe('Fulfilled');
  });

  it('create a label and a webhook, and take a carrier event, as documented', async () => {
    await carriedOut(
      'create a label',
      merchant.post(`${V2}/label`, exampleOf('post', `${V2}/label`)),
    );
    await carriedOut(
      'subscribe a webhook',
      merchant.post(`${V2}/webhook`, exampleOf('post', `${V2}/webhook`)),
    );
    const events = `${V2}/carrier/{carrier_code}/events`;
    const carrierCode = (
      exampleOf('post', `${V2}/admin/carrier-credential`) as { carrier_code: string }
    ).carrier_code;
    const carrier = await deployment.createCarrierKey(carrierCode);
    await carriedOut(
      'report carrier events',
      carrier.post(`${V2}/carrier/${carrierCode}/events`, exampleOf('post', events)),
    );
  });
});
