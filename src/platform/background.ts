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
 * Where the factory that creates background work hands it over: `own` registers the job with the
 * process's background and returns it. A factory registers what it creates as it creates it, so
 * the jobs are registered in the order of construction, which follows the dependencies (a job is
 * built after what it uses); the background starts them in that order and stops them in reverse,
 * so nothing stops before a job that uses it (the last usage counts are written before the change
 * feed stops).
 */
export interface BackgroundJobs {
  /** Registers `job`: started after the jobs registered before it, stopped before them. */
  own<T extends BackgroundJob>(job: T): T;
}

/**
 * Every background job of a process, started and stopped together by whoever owns the
 * context (the serving process, a test app). Starting twice starts each job once; stopping
 * stops them in reverse order. Building an app starts nothing: it only serves.
 */
export interface Background extends BackgroundJobs {
  start(log: JobLog): Promise<void>;
  stop(): Promise<void>;
  readonly running: boolean;
}

export function createBackground(): Background {
  const jobs: BackgroundJob[] = [];
  let running = false;
  return {
    get running() {
      return running;
    },
    own(job) {
      // A job registered once the others run would never be started.
      if (running) throw new Error(`background job registered after start: ${job.name}`);
      jobs.push(job);
      return job;
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
