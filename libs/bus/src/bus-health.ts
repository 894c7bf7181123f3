import type { BusOutcome } from '@consign/observability';

interface TopicState {
  /** Requests in a row that timed out (reset by any answer). */
  consecutive: number;
  lastTimeoutAt: number;
}

export interface TimingOutTopic {
  topic: string;
  /** The service the topic belongs to (its first segment). */
  service: string;
  consecutive: number;
  lastTimeoutAt: number;
}

/**
 * Whether this process's requests to a service keep timing out: per command topic, how many in a
 * row got no reply in time. Any answer, a refusal included, resets the count: the service and
 * the way back (reply topics, the reply consumer) work. Readiness fails while a topic's last
 * READINESS_BUS_TIMEOUTS requests all timed out and the latest is within
 * READINESS_BUS_TIMEOUT_WINDOW_MS: a process no longer sent traffic (load balancers skip an
 * unready one) becomes ready again by itself once the window passes, and fails again at once if
 * the next requests time out too.
 */
export class BusHealth {
  private readonly topics = new Map<string, TopicState>();

  /** On every request (hot path): one map lookup. */
  record(topic: string, outcome: BusOutcome, now: number = Date.now()): void {
    const state = this.topics.get(topic);
    if (outcome === 'timeout') {
      if (state) {
        state.consecutive++;
        state.lastTimeoutAt = now;
      } else this.topics.set(topic, { consecutive: 1, lastTimeoutAt: now });
    } else if (outcome !== 'unavailable' && state !== undefined && state.consecutive !== 0) {
      state.consecutive = 0;
    }
  }

  /** The topics whose last `threshold` requests timed out, the latest within `windowMs`. */
  timingOut(threshold: number, windowMs: number, now: number = Date.now()): TimingOutTopic[] {
    if (threshold <= 0) return [];
    const found: TimingOutTopic[] = [];
    for (const [topic, state] of this.topics)
      if (state.consecutive >= threshold && now - state.lastTimeoutAt < windowMs)
        found.push({ topic, service: topic.split('.')[0], ...state });
    return found;
  }
}

/** The process's registry: the CommandBus records every request's outcome here. */
export const busHealth = new BusHealth();
