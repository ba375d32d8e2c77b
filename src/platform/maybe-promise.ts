/**
 * A value now, or later. The hot path answers from caches: a lookup that hits returns its value
 * itself, so that an authenticated call costs no promise (and no turn of the microtask queue)
 * for each step that a cache answered (decision 0142). A miss returns a promise.
 */
export type MaybePromise<T> = T | Promise<T>;

/**
 * `next(value)` now if the value is here, else once it is; a throw in `next` stays a throw, or a
 * rejection. (Not named `then`: a module exporting `then` is a thenable, which `import()` calls.)
 */
export function andThen<T, R>(value: MaybePromise<T>, next: (value: T) => MaybePromise<R>): MaybePromise<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}
