import type { TokenPair } from './generated/types.js';

/**
 * Where the client keeps its token pair. The default keeps it in memory, for one process.
 *
 * Several processes (or several clients in one) can share a session by sharing a store, say one
 * backed by Redis or a file. Refresh tokens rotate and a reused one ends the session, so a
 * shared store should implement {@link TokenStore.lock}: the client renews only while holding
 * it, and reads the store again first, so that it takes up a pair another process has just
 * renewed instead of refreshing the token that process already used. The pair is a secret: keep
 * the store where only the client's processes can read it.
 */
export interface TokenStore {
  /** The pair last stored, or undefined when there is none. */
  get(): TokenPair | undefined | Promise<TokenPair | undefined>;
  /** Stores a new pair (undefined: forget it, after {@link SportsDataClient.logout}). */
  set(pair: TokenPair | undefined): void | Promise<void>;
  /**
   * Runs `work` while holding a lock shared by everyone who uses this store, and releases it
   * afterwards, also when `work` fails. Optional; without it, two processes may refresh one pair
   * at once, which ends that session and makes both log in again.
   */
  lock?<T>(work: () => Promise<T>): Promise<T>;
}

/** The default store: the pair in this process's memory, renewed by one holder at a time. */
export class MemoryTokenStore implements TokenStore {
  #pair: TokenPair | undefined;
  #queue: Promise<unknown> = Promise.resolve();

  get(): TokenPair | undefined {
    return this.#pair;
  }

  set(pair: TokenPair | undefined): void {
    this.#pair = pair;
  }

  lock<T>(work: () => Promise<T>): Promise<T> {
    const turn = this.#queue.then(work);
    // The next holder waits for this one to finish, whether it succeeds or not.
    this.#queue = turn.catch(() => undefined);
    return turn;
  }
}
