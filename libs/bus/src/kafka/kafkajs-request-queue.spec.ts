import { readFileSync } from 'node:fs';
import {
  KAFKAJS_FIXED_VERSION,
  RequestQueueInternals,
  fixKafkajsRequestQueue,
} from './kafkajs-request-queue';

type Queue = RequestQueueInternals & { destroy(): void };

// eslint-disable-next-line @typescript-eslint/no-require-imports
const RequestQueue = require('kafkajs/src/network/requestQueue') as new (options: object) => Queue;

const logger = { debug: () => undefined, info: () => undefined, warn: () => undefined };
const aQueue = (): Queue =>
  new RequestQueue({ requestTimeout: 30_000, clientId: 'spec', broker: 'b:9092', logger });

describe('kafkajs request queue fix', () => {
  let queue: Queue;

  beforeAll(() => fixKafkajsRequestQueue());

  beforeEach(() => {
    jest.useFakeTimers();
    queue = aQueue();
  });

  afterEach(() => {
    queue.destroy();
    jest.useRealTimers();
  });

  it('targets the installed kafkajs: an upgrade must look at its request queue again', () => {
    const installed = JSON.parse(readFileSync(require.resolve('kafkajs/package.json'), 'utf8')) as {
      version: string;
    };
    expect(installed.version).toBe(KAFKAJS_FIXED_VERSION);
  });

  it('schedules nothing with nothing pending and no throttle (kafkajs re-armed a 1 ms timer)', () => {
    queue.checkPendingRequests();
    expect(queue.throttleCheckTimeoutId).toBeNull();
    expect(jest.getTimerCount()).toBe(0);
  });

  it('still checks again after a throttle, with nothing pending', () => {
    queue.throttledUntil = Date.now() + 500;
    queue.scheduleCheckPendingRequests();
    expect(queue.throttleCheckTimeoutId).not.toBeNull();
    const check = jest.spyOn(queue, 'checkPendingRequests').mockImplementation(() => undefined);
    jest.advanceTimersByTime(499);
    expect(check).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(check).toHaveBeenCalledTimes(1);
    expect(queue.throttleCheckTimeoutId).toBeNull();
  });

  it('checks waiting requests within 10 ms when no throttle is set (kafkajs’ interval)', () => {
    queue.pending.push({});
    queue.scheduleCheckPendingRequests();
    const check = jest.spyOn(queue, 'checkPendingRequests').mockImplementation(() => undefined);
    jest.advanceTimersByTime(10);
    expect(check).toHaveBeenCalledTimes(1);
  });

  it('keeps one scheduled check at a time', () => {
    queue.pending.push({});
    queue.scheduleCheckPendingRequests();
    const first = queue.throttleCheckTimeoutId;
    queue.scheduleCheckPendingRequests();
    expect(queue.throttleCheckTimeoutId).toBe(first);
    expect(jest.getTimerCount()).toBe(1);
  });

  it('is applied once, however often it is called', () => {
    const applied = Object.getPrototypeOf(queue).scheduleCheckPendingRequests;
    fixKafkajsRequestQueue();
    expect(Object.getPrototypeOf(queue).scheduleCheckPendingRequests).toBe(applied);
  });
});
