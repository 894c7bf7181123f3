import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as PrismCore from '@stoplight/prism-core';
import type { IPrismDiagnostic } from '@stoplight/prism-core';
import type * as PrismHttp from '@stoplight/prism-http';
import type {
  IHttpConfig,
  IHttpNameValue,
  IHttpNameValues,
  IHttpRequest,
  IHttpResponse,
  PrismHttpComponents,
  PrismHttpInstance,
} from '@stoplight/prism-http';
import { REPO_ROOT } from './processes';

/**
 * Prism is loaded by Node's own require, not jest's: it requires packages published as ES modules
 * only (faker, http-proxy-agent), which Node 24 loads with require() while jest's module registry
 * refuses them (and, under --experimental-vm-modules as `npm test` runs, cannot require them).
 * `process.getBuiltinModule` reaches Node's module system where jest's own `require('node:module')`
 * would hand back jest's `createRequire`.
 */
const nodeRequire = process.getBuiltinModule('node:module').createRequire(__filename);
const { createInstance, getHttpOperationsFromSpec } = nodeRequire(
  '@stoplight/prism-http',
) as typeof PrismHttp;
const { createLogger } = nodeRequire('@stoplight/prism-core') as typeof PrismCore;

/** One exchange of the e2e client with the server, as the client saw it. */
export interface ObservedExchange {
  request: {
    method: string;
    /** The request's path, query string included. */
    url: string;
    /** The headers sent, names in lower case. */
    headers: Record<string, string>;
    /** The body as sent (raw text). */
    body?: string;
  };
  response: {
    status: number;
    /** The headers received, names in lower case. */
    headers: Record<string, string>;
    /** The parsed JSON body; text for anything else (a label document). */
    body?: unknown;
  };
}

export interface ConformanceOptions {
  /**
   * Whether the request is checked too. Off only for requests built to break the house rules
   * (the hostile-input fuzz): those are about the server's edge, not the document.
   */
  validateRequest: boolean;
}

/**
 * Set to a file name, violations are appended there (one JSON string a line) instead of failing
 * the request: to list every violation of a run at once while fixing them.
 */
export const OPENAPI_REPORT_ENV = 'CONSIGN_OPENAPI_REPORT';

type HttpOperations = Awaited<ReturnType<typeof getHttpOperationsFromSpec>>;
type PrismResult = Awaited<ReturnType<ReturnType<PrismHttpInstance['request']>>>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/**
 * Stoplight Prism (`@stoplight/prism-http`) in the mode of its validating proxy (`prism proxy`),
 * with the hop to the upstream replaced by the answer the e2e client already has: Prism routes the
 * request among docs/openapi.json's operations, validates it (parameters, headers, security, body)
 * and the answer (documented status, content type, headers, body), exactly as the proxy fills its
 * `sl-violations` header. Only public exports of prism-http and prism-core are used.
 */
class PrismValidator {
  private constructor(
    private readonly operations: HttpOperations,
    private readonly prism: PrismHttpInstance,
  ) {}

  static async open(file: string): Promise<PrismValidator> {
    const operations = await getHttpOperationsFromSpec(file);
    const answerObserved: PrismHttpComponents['forward'] =
      (input, _upstream, _proxy, operation) => () => () => {
        const call = calls.get(input.data);
        if (!call) throw new Error('Prism forwarded a request it was not given');
        call.operation = operation;
        return Promise.resolve({ _tag: 'Right', right: call.response });
      };
    const prism = createInstance(checkEverything, {
      logger: createLogger('openapi-conformance', { level: 'silent' }),
      forward: answerObserved,
    });
    return new PrismValidator(operations, prism);
  }

  /** Prism's verdict, and the operation it routed the request to (none: it could not route). */
  async validate(
    request: IHttpRequest,
    response: IHttpResponse,
    validateRequest: boolean,
  ): Promise<{ result: PrismResult; operation?: HttpOperations[number] }> {
    const call: Call = { response };
    calls.set(request, call);
    try {
      const config = validateRequest ? checkEverything : checkAnswerOnly;
      const result = await this.prism.request(request, this.operations, config)();
      return { result, operation: call.operation };
    } finally {
      calls.delete(request);
    }
  }
}

interface Call {
  response: IHttpResponse;
  operation?: HttpOperations[number];
}

/** The answer Prism's `forward` returns for a request (by the request object itself). */
const calls = new WeakMap<IHttpRequest, Call>();

/** `prism proxy --errors`, without its hop: the upstream is never called (see `forward`). */
const checkEverything: IHttpConfig = {
  isProxy: true,
  upstream: new URL('http://127.0.0.1/'),
  upstreamProxy: undefined,
  mock: { dynamic: false },
  checkSecurity: true,
  validateRequest: true,
  validateResponse: true,
  // A request Prism cannot route is reported (not forwarded), so that it can be told apart.
  errors: true,
};
const checkAnswerOnly: IHttpConfig = {
  ...checkEverything,
  checkSecurity: false,
  validateRequest: false,
};

let opened: Promise<PrismValidator> | undefined;

function prismValidator(): Promise<PrismValidator> {
  opened ??= PrismValidator.open(join(REPO_ROOT, 'docs', 'openapi.json'));
  return opened;
}

function query(search: URLSearchParams): IHttpNameValues {
  const values: IHttpNameValues = {};
  for (const key of new Set(search.keys())) {
    const all = search.getAll(key);
    values[key] = all.length === 1 ? all[0] : all;
  }
  return values;
}

function parsedBody(request: ObservedExchange['request']): unknown {
  if (request.body === undefined) return undefined;
  if (!(request.headers['content-type'] ?? '').startsWith('application/json')) return request.body;
  try {
    return JSON.parse(request.body) as unknown;
  } catch {
    return request.body;
  }
}

function prismRequest(request: ObservedExchange['request'], method: string): IHttpRequest {
  const url = new URL(request.url, 'http://consign.invalid');
  const headers: IHttpNameValue = { ...request.headers };
  if (request.body !== undefined)
    headers['content-length'] = String(Buffer.byteLength(request.body));
  return {
    method: method as IHttpRequest['method'],
    url: { path: url.pathname, query: query(url.searchParams) },
    headers,
    body: parsedBody(request),
  };
}

function describeDiagnostic(side: 'request' | 'response', diagnostic: IPrismDiagnostic): string {
  const at = diagnostic.path?.length ? ` ${diagnostic.path.join('.')}` : '';
  return `${side}${at}: ${diagnostic.message}`;
}

/**
 * What in an exchange docs/openapi.json does not allow, as Stoplight Prism reports it: a request
 * the document refuses although the server accepted it, an undocumented status, a content type
 * or header the response does not declare, a body its schema refuses. A request the document
 * refuses and the server refused too (4xx) is what a scenario of invalid input sends: the two
 * agree. A path the document does not have (health, metrics, pages, an unknown route) is not the
 * API's, and is not checked; another method on a documented path must answer the 405 documented
 * on the path's operations.
 */
export async function openApiViolations(
  exchange: ObservedExchange,
  options: ConformanceOptions = { validateRequest: true },
): Promise<string[]> {
  const validator = await prismValidator();
  const { request, response } = exchange;
  const where = `${request.method} ${request.url} → ${response.status}`;
  const answer: IHttpResponse = {
    statusCode: response.status,
    headers: response.headers,
    body: response.body,
  };
  const refusedByServer = response.status >= 400 && response.status < 500;
  const { result, operation } = await validator.validate(
    prismRequest(request, request.method.toLowerCase()),
    answer,
    options.validateRequest && !refusedByServer,
  );
  if (result._tag === 'Right') {
    const name = `${where} (${operation?.iid ?? operation?.path ?? '?'})`;
    return [
      ...result.right.validations.input.map((d) => describeDiagnostic('request', d)),
      ...result.right.validations.output.map((d) => describeDiagnostic('response', d)),
    ].map((violation) => `${name}: ${violation}`);
  }
  const error = result.left;
  if (error.name === 'https://stoplight.io/prism/errors#NO_PATH_MATCHED_ERROR') return [];
  if (error.name !== 'https://stoplight.io/prism/errors#NO_METHOD_MATCHED_ERROR')
    return [`${where}: ${error.message}`];
  if (response.status !== 405) return [`${where}: a method the path does not take must answer 405`];
  // The 405 is documented on each operation of the path: the answer is checked as theirs.
  for (const method of METHODS) {
    const asOperation = await validator.validate(prismRequest(request, method), answer, false);
    if (asOperation.result._tag === 'Right')
      return asOperation.result.right.validations.output.map(
        (d) =>
          `${where} (405 of ${asOperation.operation?.iid ?? method}): ` +
          describeDiagnostic('response', d),
      );
  }
  return [`${where}: no operation of the path answers to any method`];
}

/**
 * Fails (throws) when an exchange violates docs/openapi.json; with CONSIGN_OPENAPI_REPORT set,
 * records the violations in that file instead.
 */
export async function expectConformsToOpenApi(
  exchange: ObservedExchange,
  options?: ConformanceOptions,
): Promise<void> {
  const violations = await openApiViolations(exchange, options);
  if (!violations.length) return;
  const report = process.env[OPENAPI_REPORT_ENV];
  if (report) {
    appendFileSync(report, violations.map((v) => `${JSON.stringify(v)}\n`).join(''));
    return;
  }
  throw new Error(
    `The exchange violates docs/openapi.json (Stoplight Prism):\n${violations.join('\n')}\n` +
      `request body: ${exchange.request.body?.slice(0, 2000) ?? '(none)'}\n` +
      `response body: ${JSON.stringify(exchange.response.body)?.slice(0, 2000)}`,
  );
}

/**
 * `fetch`, with every exchange validated by expectConformsToOpenApi: for the ApiClient, and for
 * any other client of the scenarios (openapi-fetch's `fetch` option, a bare request).
 */
export function conformingFetch(
  options: ConformanceOptions = { validateRequest: true },
): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const sent = request.body ? await request.clone().text() : undefined;
    const response = await fetch(request);
    const bytes = Buffer.from(await response.clone().arrayBuffer());
    const contentType = response.headers.get('content-type') ?? '';
    const url = new URL(request.url);
    await expectConformsToOpenApi(
      {
        request: {
          method: request.method,
          url: `${url.pathname}${url.search}`,
          headers: Object.fromEntries(request.headers.entries()),
          body: sent,
        },
        response: {
          status: response.status,
          headers: Object.fromEntries(response.headers.entries()),
          body: /^application\/(.+\+)?json/.test(contentType)
            ? parseJson(bytes.toString('utf8'))
            : bytes.toString('latin1'),
        },
      },
      options,
    );
    return response;
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
