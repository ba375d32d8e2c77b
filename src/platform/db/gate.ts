import { DatabaseUnavailableError } from './unavailable.js';

/**
 * A first-come, first-served lock whose waits are bounded: SQLite has one connection per
 * process, and a statement must never run inside another request's open transaction. Unlike
 * Kysely's own mutex, a waiter gives up after `timeoutMs` (→ 503), so that one long transaction
 * cannot queue every request behind it without limit.
 */
export class Gate {
  private held = false;
  private readonly waiters: Array<{ resolve: () => void; timer: NodeJS.Timeout }> = [];

  enter(timeoutMs: number): Promise<void> {
    if (!this.held) {
      this.held = true;
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

  /** Hands the gate to the next waiter (no barging in between), or opens it. */
  leave(): void {
    const next = this.waiters.shift();
    if (next) {
      clearTimeout(next.timer);
      next.resolve();
      return;
    }
    this.held = false;
  }
}
