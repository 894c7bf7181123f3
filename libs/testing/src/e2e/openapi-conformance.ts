import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import type { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { REPO_ROOT } from './processes';

/** One answer of the server, as the e2e client saw it. */
export interface ObservedResponse {
  method: string;
  /** The request's path, query string included. */
  url: string;
  status: number;
  contentType: string | null;
  /** The parsed JSON body; undefined for bytes (a label document). */
  body?: unknown;
}

/**
 * Set to a file name, violations are appended there (one JSON string a line) instead of failing
 * the request: to list every violation of a run at once while fixing them.
 */
export const OPENAPI_REPORT_ENV = 'CONSIGN_OPENAPI_REPORT';

const DOCUMENT_ID = 'https://consign.invalid/openapi.json';
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

interface Operation {
  operationId?: string;
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

interface Route {
  template: string;
  pattern: RegExp;
  /** Literal characters: the more, the more specific (`/order/tracking/{id}` before `/order/{id}`). */
  specificity: number;
  operations: Record<string, Operation>;
}

/**
 * docs/openapi.json as a validator: its paths as routes, and Ajv (JSON Schema 2020-12, the
 * dialect of OpenAPI 3.1, with ajv-formats for `date-time`, `email`, `uri`…) compiling the schema
 * of each documented response the first time it is seen.
 */
class OpenApiDocument {
  private readonly ajv: Ajv2020;
  private readonly routes: Route[];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(file: string) {
    const document = JSON.parse(readFileSync(file, 'utf8')) as {
      paths: Record<string, Record<string, Operation>>;
    };
    // OpenAPI's own keywords (`example`, `discriminator`, `xml`) are annotations: not strict.
    // Ajv's defaults, as Stoplight Prism uses it (the document states no `multipleOf`: see
    // applyContractRules, isDecimal).
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
    addFormats(this.ajv);
    this.ajv.addFormat('int64', {
      type: 'number',
      validate: (n: number) => Number.isSafeInteger(n),
    });
    this.ajv.addFormat('binary', true);
    this.ajv.addSchema({ ...document, $id: DOCUMENT_ID });
    this.routes = Object.entries(document.paths)
      .map(([template, item]) => ({
        template,
        pattern: new RegExp(
          `^${template
            .split(/\{[^}]+\}/)
            .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
            .join('[^/]+')}$`,
        ),
        specificity: template.replace(/\{[^}]+\}/g, '').length,
        operations: Object.fromEntries(
          Object.entries(item).filter(([method]) => METHODS.includes(method)),
        ),
      }))
      .sort((a, b) => b.specificity - a.specificity);
  }

  /** The path template a request path matches, the most specific first; none: not the API's. */
  route(path: string): Route | undefined {
    return this.routes.find(({ pattern }) => pattern.test(path));
  }

  validator(template: string, method: string, status: string, type: string): ValidateFunction {
    const pointer = ['paths', template, method, 'responses', status, 'content', type, 'schema']
      .map((token) => token.replace(/~/g, '~0').replace(/\//g, '~1'))
      .join('/');
    let validate = this.validators.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${DOCUMENT_ID}#/${pointer}` });
      this.validators.set(pointer, validate);
    }
    return validate;
  }
}

let loaded: OpenApiDocument | undefined;

function openApiDocument(): OpenApiDocument {
  loaded ??= new OpenApiDocument(join(REPO_ROOT, 'docs', 'openapi.json'));
  return loaded;
}

/**
 * What in an answer the document does not allow: an undocumented status, a content type the
 * response does not declare, a body its schema refuses. A path the document does not have (health,
 * metrics, pages, an unknown route) is not the API's, and is not checked.
 */
export function openApiViolations(response: ObservedResponse): string[] {
  const document = openApiDocument();
  const path = response.url.split('?')[0];
  const route = document.route(path);
  if (!route) return [];
  const method = response.method.toLowerCase();
  // A known path asked with another method answers 405, documented on each operation of the path.
  const [operationMethod, operation] =
    method in route.operations
      ? [method, route.operations[method]]
      : (Object.entries(route.operations)[0] ?? []);
  if (!operation || !operationMethod) return [];
  const name =
    method in route.operations ? operation.operationId : `${method} on ${route.template}`;
  const where = `${response.method} ${response.url} → ${response.status} (${name})`;
  if (!(method in route.operations) && response.status !== 405)
    return [`${where}: a method the path does not take must answer 405`];
  const status = String(response.status);
  const answer = operation.responses?.[status];
  if (!answer) return [`${where}: status not documented`];
  const types = Object.keys(answer.content ?? {});
  const type = (response.contentType ?? '').split(';')[0].trim();
  if (types.length && !types.includes(type))
    return [`${where}: content type ${type || '(none)'} not among ${types.join(', ')}`];
  if (response.body === undefined || type !== 'application/json') return [];
  const validate = document.validator(route.template, operationMethod, status, type);
  if (validate(response.body)) return [];
  return (validate.errors ?? []).map(
    (error) =>
      `${where}: body${error.instancePath} ${error.message}` +
      (Object.keys(error.params).length ? ` ${JSON.stringify(error.params)}` : ''),
  );
}

/**
 * Fails (throws) when an answer violates docs/openapi.json; with CONSIGN_OPENAPI_REPORT set,
 * records the violations in that file instead.
 */
export function expectConformsToOpenApi(response: ObservedResponse): void {
  const violations = openApiViolations(response);
  if (!violations.length) return;
  const report = process.env[OPENAPI_REPORT_ENV];
  if (report) {
    appendFileSync(report, violations.map((v) => `${JSON.stringify(v)}\n`).join(''));
    return;
  }
  throw new Error(
    `The answer violates docs/openapi.json:\n${violations.join('\n')}\n` +
      `body: ${JSON.stringify(response.body)?.slice(0, 2000)}`,
  );
}
