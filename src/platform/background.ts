import type { LifecycleLog } from './lifecycle/log.js';

/** Where background work reports what went wrong: the app's logger. */
export type JobLog = LifecycleLog;

/** Work a serving process does on its own: polling, purging. One start, one stop. */
export interface BackgroundJob {
  readonly name: string;
  start(log: JobLog): Promise<void> | void;
  stop(): Promise<void> | void;
}

/**
 * Every background job of a process, started and stopped together by whoever owns the
 * context (the serving process, a test app). Starting twice starts each job once; stopping
 * stops them in reverse order. Building an app starts nothing: it only serves.
 */
export interface Background {
  start(log: JobLog): Promise<void>;
  stop(): Promise<void>;
  readonly running: boolean;
}

export function createBackground(jobs: readonly BackgroundJob[]): Background {
  let running = false;
  return {
    get running() {
      return running;
    },
    async start(log) {
      if (running) return;
      running = true;
      for (const job of jobs) await job.start(log);
    },
    async stop() {
      if (!running) return;
      running = false;
      for (const job of [...jobs].reverse()) await job.stop();
    },
  };
}

/**
 * A job that runs `work` every `everyMs` while started (a purge, a flush). A failed run is
 * logged and the next one comes on time; the timer never holds the process open.
 */
export function createPeriodicJob(options: { name: string; everyMs: number; work: () => Promise<unknown> }): BackgroundJob {
  let timer: NodeJS.Timeout | undefined;
  return {
    name: options.name,
    start(log) {
      if (timer) return;
      timer = setInterval(() => {
        options.work().catch((error: unknown) => log.warn({ err: error }, `${options.name} failed`));
      }, options.everyMs);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}
