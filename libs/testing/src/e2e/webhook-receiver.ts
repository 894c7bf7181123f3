import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One webhook request as a receiver saw it. */
export interface ReceivedWebhook {
  path: string;
  webhookId: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The parsed body when the signature verified with one of the receiver's secrets. */
  verified: unknown;
  /** Why verification failed, when it did. */
  verifyError: string | null;
  /** When it arrived (ms since the epoch). */
  at: number;
  /** The status answered; 0 while held unanswered (see `answer`). */
  status: number;
}

/**
 * A real HTTP receiver on loopback for webhook tests: it verifies every request's Standard
 * Webhooks signature with the `standardwebhooks` library against the secrets it is given (per
 * path: one receiver serves several endpoints), records it, and answers what `answer` says
 * (200 by default; status 0 holds the request unanswered, as a hung receiver would).
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private readonly secrets = new Map<string, string[]>();
  answer: (request: ReceivedWebhook) => { status: number; headers?: Record<string, string> } =
    () => ({ status: 200 });
  private server?: Server;
  private port = 0;

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const path = request.url ?? '/';
        let verified: unknown = null;
        let verifyError: string | null = 'no secret for this path';
        for (const secret of this.secrets.get(path) ?? []) {
          try {
            verified = new Webhook(secret).verify(body, request.headers as Record<string, string>);
            verifyError = null;
            break;
          } catch (error: unknown) {
            verifyError = error instanceof Error ? error.message : String(error);
          }
        }
        const entry: ReceivedWebhook = {
          path,
          webhookId: String(request.headers['webhook-id'] ?? ''),
          headers: request.headers,
          body,
          verified,
          verifyError,
          at: Date.now(),
          status: 0,
        };
        this.received.push(entry);
        const { status, headers } = this.answer(entry);
        entry.status = status;
        if (status === 0) return;
        response.writeHead(status, headers).end(status < 300 ? 'ok' : 'not now');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  /** The URL of `path` on this receiver. */
  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** Secrets that sign what arrives at `path` (a rotation's old and new one, say). */
  trust(path: string, ...secrets: string[]): void {
    this.secrets.set(path, secrets);
  }

  at(path: string): ReceivedWebhook[] {
    return this.received.filter((r) => r.path === path);
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server!.close(resolve));
  }
}

/** Loopback receivers over http, and retries in milliseconds rather than minutes. */
export const WEBHOOK_TEST_ENV = {
  WEBHOOK_ALLOW_HTTP: 'true',
  WEBHOOK_ALLOWED_NETWORKS: 'loopback',
  WEBHOOK_RETRY_BASE_MS: '20',
  WEBHOOK_RETRY_MAX_DELAY_MS: '200',
  WEBHOOK_TIMEOUT_MS: '2000',
  WEBHOOK_POLL_MS: '100',
  // Royal Mail is left to the tests, which report its events themselves.
  CARRIER_SANDBOX_CARRIERS: 'DHL,UPS,USPS,DPD',
};
