import autocannon from 'autocannon';

export interface Scenario {
  name: string;
  /** Target requests: a fixed request, or per-connection state through setupRequest/onResponse. */
  requests: autocannon.Request[];
  headers?: Record<string, string>;
}

export interface Measured {
  name: string;
  reqPerSec: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

export interface LoadOptions {
  connections: number;
  seconds: number;
  warmupSeconds: number;
}

/** Runs one scenario against a base URL: a short warm-up (JIT, caches), then the measured run. */
export async function measure(baseUrl: string, scenario: Scenario, options: LoadOptions): Promise<Measured> {
  const run = (duration: number) =>
    autocannon({
      url: baseUrl,
      connections: options.connections,
      duration,
      headers: scenario.headers,
      requests: scenario.requests,
    });
  if (options.warmupSeconds > 0) await run(options.warmupSeconds);
  const result = await run(options.seconds);
  return {
    name: scenario.name,
    reqPerSec: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}
