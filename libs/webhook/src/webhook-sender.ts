import { LookupAddress, lookup as dnsLookup } from 'node:dns';
import * as http from 'node:http';
import * as https from 'node:https';
import { isIP } from 'node:net';
import { AddressPolicy } from './address-policy';
import { parseRetryAfter } from './retry-schedule';

/** The most of a receiver's answer that is read; the rest is never downloaded. */
export const MAX_RESPONSE_BYTES = 4096;

export interface SendOutcome {
  /** The receiver's HTTP status; null when none came (refused address, network error, timeout). */
  status: number | null;
  durationMs: number;
  /** The receiver's Retry-After, in ms from now. */
  retryAfterMs: number | null;
  /** Why the attempt failed; null on 2xx. */
  error: string | null;
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * POSTs webhook bodies. The host is resolved by a lookup that refuses the whole name when any of
 * its addresses is one the policy refuses, at connection time, so a name cannot be re-pointed at
 * a private address between a check and the connection. Redirects are not followed (a 3xx is a
 * failed attempt), each attempt has a timeout, and at most MAX_RESPONSE_BYTES of an answer are
 * read. Connections are kept alive between deliveries.
 */
export class WebhookSender {
  private readonly httpAgent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  private readonly httpsAgent = new https.Agent({ keepAlive: true, maxSockets: 256 });

  constructor(
    private readonly policy: AddressPolicy,
    private readonly timeoutMs: number,
  ) {}

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  send(url: string, headers: Record<string, string>, body: string): Promise<SendOutcome> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return Promise.resolve(failed(elapsed(), 'invalid url'));
    }
    const host = target.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host)) {
      const refusal = this.policy.refusal(host);
      if (refusal) return Promise.resolve(failed(elapsed(), `refused: ${refusal}`));
    }
    const secure = target.protocol === 'https:';
    const payload = Buffer.from(body);
    return new Promise<SendOutcome>((resolve) => {
      let settled = false;
      const finish = (outcome: SendOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(outcome);
      };
      const request = (secure ? https : http).request(
        target,
        {
          method: 'POST',
          agent: secure ? this.httpsAgent : this.httpAgent,
          lookup: this.safeLookup,
          headers: {
            ...headers,
            'content-type': 'application/json',
            'content-length': String(payload.length),
            'user-agent': 'Consign-Webhooks/1',
          },
        },
        (response) => {
          const status = response.statusCode ?? 0;
          const retryAfter = response.headers['retry-after'];
          let read = 0;
          const chunks: Buffer[] = [];
          const done = () => {
            const ok = status >= 200 && status < 300;
            const excerpt = Buffer.concat(chunks).toString('utf8').slice(0, 200);
            finish({
              status,
              durationMs: elapsed(),
              retryAfterMs: parseRetryAfter(
                Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
                new Date(),
              ),
              error: ok ? null : `HTTP ${status}${excerpt ? `: ${excerpt}` : ''}`,
            });
          };
          response.on('data', (chunk: Buffer) => {
            read += chunk.length;
            if (chunks.length < 4) chunks.push(chunk);
            if (read >= MAX_RESPONSE_BYTES) {
              // Enough: the rest of a large answer is not downloaded.
              done();
              response.destroy();
            }
          });
          response.on('end', done);
          response.on('error', done);
          response.on('close', done);
        },
      );
      const timer = setTimeout(() => {
        request.destroy(new Error(`no answer within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      request.on('error', (error) => finish(failed(elapsed(), error.message)));
      request.end(payload);
    });
  }

  private readonly safeLookup = (
    hostname: string,
    options: { all?: boolean; family?: number | string },
    callback: LookupCallback,
  ): void => {
    dnsLookup(hostname, { all: true, family: numericFamily(options.family) }, (error, found) => {
      if (error) return callback(error, []);
      const addresses = found as LookupAddress[];
      for (const entry of addresses) {
        const refusal = this.policy.refusal(entry.address);
        if (refusal)
          return callback(
            Object.assign(new Error(`refused: ${hostname} resolves to ${refusal}`), {
              code: 'EREFUSEDADDRESS',
            }),
            [],
          );
      }
      if (addresses.length === 0)
        return callback(
          Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }),
          [],
        );
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

function numericFamily(family: number | string | undefined): 0 | 4 | 6 {
  if (family === 4 || family === 'IPv4') return 4;
  if (family === 6 || family === 'IPv6') return 6;
  return 0;
}

function failed(durationMs: number, error: string): SendOutcome {
  return { status: null, durationMs, retryAfterMs: null, error: error.slice(0, 500) };
}
