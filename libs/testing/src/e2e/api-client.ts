import { request as httpRequest } from 'node:http';
import {
  conformingFetch,
  expectConformsToOpenApi,
  type ConformanceOptions,
} from './openapi-conformance';

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: { code: number; message: string; data: T | null };
}

/**
 * A small HTTP client speaking to a running gateway the way a merchant's code would. Every
 * exchange is checked against docs/openapi.json by Stoplight Prism (openapi-conformance.ts): a
 * violation fails the request.
 */
export class ApiClient {
  private readonly fetch: typeof fetch;

  constructor(
    readonly baseUrl: string,
    readonly apiKey?: string,
    private readonly conformance: ConformanceOptions = { validateRequest: true },
  ) {
    this.fetch = conformingFetch(conformance);
  }

  withKey(apiKey: string | undefined): ApiClient {
    return new ApiClient(this.baseUrl, apiKey, this.conformance);
  }

  /**
   * The same client for requests built to break the house rules (hostile input): their answers
   * are still checked against the document, the requests themselves are not.
   */
  sendingHostileRequests(): ApiClient {
    return new ApiClient(this.baseUrl, this.apiKey, { validateRequest: false });
  }

  private authorization(): Record<string, string> {
    return this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {};
  }

  get<T = unknown>(path: string): Promise<ApiResponse<T>> {
    return this.request<T>('GET', path);
  }

  /** A GET whose success is not an envelope (a label document): status, headers and bytes. */
  async getBytes(path: string): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
    const response = await this.fetch(`${this.baseUrl}${path}`, {
      headers: this.authorization(),
    });
    const bytes = Buffer.from(await response.arrayBuffer());
    return { status: response.status, headers: response.headers, bytes };
  }

  /** A POST; without a body for an operation that takes none (an action on a resource). */
  post<T = unknown>(path: string, body?: unknown): Promise<ApiResponse<T>> {
    return this.request<T>('POST', path, body === undefined ? undefined : JSON.stringify(body));
  }

  put<T = unknown>(path: string, body: unknown): Promise<ApiResponse<T>> {
    return this.request<T>('PUT', path, JSON.stringify(body));
  }

  async request<T>(
    method: string,
    path: string,
    body?: string,
    headers: Record<string, string> = {},
  ): Promise<ApiResponse<T>> {
    const sent = lowerCaseNames({
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...this.authorization(),
      ...headers,
    });
    const response = await this.fetch(`${this.baseUrl}${path}`, { method, body, headers: sent });
    const text = await response.text();
    let parsed: ApiResponse<T>['body'];
    try {
      parsed = JSON.parse(text) as ApiResponse<T>['body'];
    } catch {
      throw new Error(
        `${method} ${path}: ${response.status} with a body that is not JSON: ${text.slice(0, 200)}`,
      );
    }
    return { status: response.status, headers: response.headers, body: parsed };
  }

  /**
   * Sends a body the server will refuse before reading it (over the size limit). The server
   * answers and closes while the body is still being written, so a write error after the answer
   * arrived is expected; fetch would report only the write error.
   */
  async sendOversized(path: string, body: string, attempts = 3): Promise<ApiResponse> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.sendOnce(path, body);
      } catch (error) {
        // The write error can win the race against the answer; the answer is what is tested.
        if (attempt >= attempts) throw error;
      }
    }
  }

  private sendOnce(path: string, body: string): Promise<ApiResponse> {
    return new Promise((resolve, reject) => {
      let answered = false;
      const headers = { 'content-type': 'application/json', ...this.authorization() };
      const req = httpRequest(
        `${this.baseUrl}${path}`,
        {
          method: 'POST',
          headers: { ...headers, 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          answered = true;
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const answer: ApiResponse = {
              status: res.statusCode ?? 0,
              headers: new Headers(Object.entries(res.headers).map(([k, v]) => [k, String(v)])),
              body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as ApiResponse['body'],
            };
            expectConformsToOpenApi(
              {
                request: { method: 'POST', url: path, headers, body },
                response: {
                  status: answer.status,
                  headers: headerRecord(answer.headers),
                  body: answer.body,
                },
              },
              this.conformance,
            ).then(() => resolve(answer), reject);
          });
        },
      );
      req.on('error', (error) => {
        if (!answered) reject(error);
      });
      req.end(body);
    });
  }
}

function headerRecord(headers: Headers): Record<string, string> {
  return Object.fromEntries(headers.entries());
}

function lowerCaseNames(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]),
  );
}
