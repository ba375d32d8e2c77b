import type { BackgroundJob, BackgroundJobs, JobLog } from './background.js';
import type { ChangeFeed } from './cache/change-feed.js';
import type { ChangeVersionName } from './db/schema.js';
import { windowed } from './windowed.js';

/** Work that catches up with what is waiting, run on this node's own changes and on a timer. */
export interface TriggeredJob extends BackgroundJob {
  /** Runs the work; resolves after a run that started after the call. */
  run(): Promise<void>;
}

export interface TriggeredJobDeps {
  name: string;
  changes: ChangeFeed;
  background: BackgroundJobs;
  /** The counter whose moves by this node wake it (the node that made a change does the work once for every node). */
  wakeOn: ChangeVersionName;
  /** Woken at most once per this window (a leading run, then a trailing one); 0 or none: on every change. */
  windowMs?: number;
  /**
   * How often every node runs it on its own, for what a node that died left; it also runs once at
   * start. 0: never on its own, only when woken or asked (a thread beside another of its node that
   * runs it on the timer: both computing one batch, one of them throws its work away).
   */
  everyMs: number;
  work: () => Promise<void>;
}

/**
 * `work` as a background job (the history processors, the webhooks' outbox): one run at a time,
 * run after this node's own change of `wakeOn`, at start (what a node that died left behind) and
 * every `everyMs` (unless 0). A failed run is logged; the next one comes on time.
 */
export function createTriggeredJob(deps: TriggeredJobDeps): TriggeredJob {
  const state: { timer: NodeJS.Timeout | undefined; log: JobLog | undefined } = { timer: undefined, log: undefined };
  const { run, idle } = serialized(deps.work);
  const runLogged = () => {
    if (state.log === undefined) return;
    const log = state.log;
    run().catch((error: unknown) => log.warn({ err: error instanceof Error ? error.message : String(error) }, `${deps.name} failed`));
  };
  // Woken by a change, the work starts on the next turn of the loop, not within the call that told
  // of the change: what made it (an import) finishes and answers first, instead of sharing its last
  // awaits with the first slices of every job it woke.
  const wake = windowed(() => setImmediate(runLogged), deps.windowMs ?? 0);
  deps.changes.onOwnChange(deps.wakeOn, wake.poke);
  return deps.background.own({
    name: deps.name,
    run,
    start(log) {
      if (state.log) return;
      state.log = log;
      if (deps.everyMs === 0) return;
      state.timer = setInterval(runLogged, deps.everyMs);
      state.timer.unref();
      runLogged();
    },
    async stop() {
      if (state.timer) clearInterval(state.timer);
      state.timer = undefined;
      wake.cancel();
      state.log = undefined;
      await idle();
    },
  });
}

/**
 * `work`, one run at a time; a call while one runs gets the next run, shared by every call until
 * it starts. `idle` resolves once no run is running or waiting.
 */
function serialized(work: () => Promise<void>): { run: () => Promise<void>; idle: () => Promise<void> } {
  let tail: Promise<void> = Promise.resolve();
  let waiting: Promise<void> | undefined;
  return {
    run() {
      waiting ??= tail.then(() => {
        waiting = undefined;
        return work();
      });
      const next = waiting;
      tail = next.catch(() => {});
      return next;
    },
    idle: () => tail,
  };
}
