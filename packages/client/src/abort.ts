/**
 * Waiting that a signal can end. Written by hand rather than with `AbortSignal.any`, which
 * Node.js has only from 20.3: the package promises every Node 20.
 */

/** Rejects with the signal's reason when it is aborted before the promise settles. */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it is aborted. */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const waited = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  return abortable(waited, signal).finally(() => clearTimeout(timer));
}

/** The reason a timed-out attempt is aborted with, told apart from the caller's own abort. */
export class AttemptTimeout extends Error {
  override readonly name = 'AttemptTimeout';
}

/**
 * A signal for one HTTP attempt: aborted by the caller's signal, or with an {@link AttemptTimeout}
 * after `timeoutMs`. `done()` releases the timer and the listener.
 */
export function attemptSignal(callerSignal: AbortSignal | undefined, timeoutMs: number): { signal: AbortSignal; done: () => void } {
  const controller = new AbortController();
  const onAbort = () => controller.abort(callerSignal?.reason);
  if (callerSignal?.aborted) onAbort();
  else callerSignal?.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => controller.abort(new AttemptTimeout(`no answer within ${timeoutMs} ms`)), timeoutMs);
  return {
    signal: controller.signal,
    done: () => {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onAbort);
    },
  };
}
