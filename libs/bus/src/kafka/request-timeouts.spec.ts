import type { Consumer, Producer, RequestTimeoutEvent } from 'kafkajs';
import { warnOnRequestTimeouts } from './request-timeouts';
import { spyOnLogger } from '@consign/testing/logging';

/** A consumer or producer as far as instrumentation goes: `events` and `on`. */
function fakeClient(kind: 'consumer' | 'producer') {
  const listeners = new Map<string, ((event: RequestTimeoutEvent) => void)[]>();
  const REQUEST_TIMEOUT = `${kind}.network.request_timeout`;
  const client = {
    events: { REQUEST_TIMEOUT },
    on: (name: string, listener: (event: RequestTimeoutEvent) => void) => {
      listeners.set(name, [...(listeners.get(name) ?? []), listener]);
      return () => undefined;
    },
    ...(kind === 'consumer' ? { subscribe: () => undefined } : { send: () => undefined }),
  };
  const timeOut = (apiName: string, sentAt: number) => {
    for (const listener of listeners.get(REQUEST_TIMEOUT) ?? [])
      listener({
        id: '1',
        type: REQUEST_TIMEOUT,
        timestamp: Date.now(),
        payload: {
          apiKey: 1,
          apiName,
          apiVersion: 11,
          broker: '127.0.0.1:9092',
          clientId: 'rating-service',
          correlationId: 42,
          createdAt: sentAt,
          pendingDuration: 0,
          sentAt,
        },
      });
  };
  return { client, timeOut };
}

describe('warnOnRequestTimeouts', () => {
  const warn = spyOnLogger('warn');
  beforeEach(() => {
    jest.useFakeTimers({ now: 1_000_000 });
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it("logs a consumer's request the broker did not answer, with how long it waited", () => {
    const { client, timeOut } = fakeClient('consumer');
    warnOnRequestTimeouts('rating-service-server', client as unknown as Consumer);
    timeOut('Fetch', 1_000_000 - 30_250);
    expect(warn()).toHaveBeenCalledTimes(1);
    expect(warn()).toHaveBeenCalledWith(
      'rating-service-server: broker 127.0.0.1:9092 did not answer Fetch (correlation 42) within 30250 ms',
    );
  });

  it("logs a producer's, and each client once however often it is watched", () => {
    const { client, timeOut } = fakeClient('producer');
    warnOnRequestTimeouts('rating-service producer', client as unknown as Producer);
    warnOnRequestTimeouts('rating-service producer', client as unknown as Producer);
    timeOut('Produce', 1_000_000 - 30_000);
    expect(warn()).toHaveBeenCalledTimes(1);
    expect(warn()).toHaveBeenCalledWith(
      'rating-service producer: broker 127.0.0.1:9092 did not answer Produce (correlation 42) within 30000 ms',
    );
  });
});
