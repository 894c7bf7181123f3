export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: { code: number; message: string; data: T | null };
}

/** A small HTTP client speaking to a running gateway the way a merchant's code would. */
export class ApiClient {
  constructor(
    readonly baseUrl: string,
    private readonly apiKey?: string,
  ) {}

  withKey(apiKey: string | undefined): ApiClient {
    return new ApiClient(this.baseUrl, apiKey);
  }

  get<T = unknown>(path: string): Promise<ApiResponse<T>> {
    return this.request<T>('GET', path);
  }

  post<T = unknown>(path: string, body: unknown): Promise<ApiResponse<T>> {
    return this.request<T>('POST', path, JSON.stringify(body));
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
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      body,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {}),
        ...headers,
      },
    });
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
}
