// The parts of autocannon 9's programmatic API the benchmarks use (the package ships no types).
declare module 'autocannon' {
  interface Histogram {
    min: number;
    max: number;
    average: number;
    mean: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
  }

  export interface Result {
    requests: Histogram & { total: number };
    latency: Histogram;
    throughput: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    mismatches: number;
    '2xx': number;
    duration: number;
    statusCodeStats: Record<string, { count: number }>;
  }

  /** What `setupRequest` may change of a request before it is sent. */
  export interface RequestParams {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }

  export interface Options {
    url: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    connections?: number;
    duration?: number;
    amount?: number;
    pipelining?: number;
    requests?: { setupRequest?: (request: RequestParams) => RequestParams }[];
  }

  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
