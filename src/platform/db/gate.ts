import { DatabaseUnavailableError } from './unavailable.js';

/**
 * A first-come, first-served lock with `places` holders at once, whose waits are bounded. SQLite
 * has one writing connection per process (one place), and a statement must never run inside
 * another request's open transaction; a PostgreSQL pool keeps connections free for reads by
 * letting only so many transactions hold one. Unlike Kysely's own mutex, a waiter gives up after
 * `timeoutMs` (→ 503), so that long transactions cannot queue every request behind them without
 * limit.
 */
export class Gate {
  private free: number;
  private readonly waiters: Array<{ resolve: () => void; timer: NodeJS.Timeout }> = [];

  constructor(places = 1) {
    this.free = places;
  }

  /** True while every place is taken. */
  get full(): boolean {
    return this.free === 0;
  }

  enter(timeoutMs: number): Promise<void> {
    if (this.free > 0) {
      this.free -= 1;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const waiter = {
        resolve,
        timer: setTimeout(() => {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          reject(new DatabaseUnavailableError('busy', `waited ${timeoutMs} ms for the database connection`));
        }, Math.max(0, timeoutMs)),
      };
      this.waiters.push(waiter);
    });
  }

  /** Hands the place to the next waiter (no barging in between), or frees it. */
  leave(): void {
    const next = this.waiters.shift();
    if (next) {
      clearTimeout(next.timer);
      next.resolve();
      return;
    }
    this.free += 1;
  }
}
