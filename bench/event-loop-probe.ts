import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * Preloaded into the API process by the bench only (`node --import tsx --import
 * ./bench/event-loop-probe.ts dist/server.js`, with an IPC channel): measures the event-loop delay
 * inside that process and answers the bench over IPC. Nothing of it exists in a normal start, and
 * nothing is exposed over HTTP.
 */
export interface EventLoopDelay {
  type: 'event-loop-delay';
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  samples: number;
}

export type ProbeRequest = 'event-loop:reset' | 'event-loop:read';

// 2 ms: fine enough to see a 10 ms block, cheap enough not to weigh on the figures it measures.
const histogram = monitorEventLoopDelay({ resolution: 2 });
histogram.enable();

const ms = (nanoseconds: number) => Math.round(nanoseconds / 10_000) / 100;

process.on('message', (message: unknown) => {
  if (message === 'event-loop:reset') {
    histogram.reset();
    process.send?.({ type: 'event-loop-reset' });
  } else if (message === 'event-loop:read') {
    const reading: EventLoopDelay = {
      type: 'event-loop-delay',
      p50Ms: ms(histogram.percentile(50)),
      p99Ms: ms(histogram.percentile(99)),
      maxMs: ms(histogram.max),
      samples: histogram.count,
    };
    process.send?.(reading);
  }
});
// The channel must not keep the server alive after SIGTERM.
process.channel?.unref();
