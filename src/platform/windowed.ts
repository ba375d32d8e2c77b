/** A trigger that runs its work at most once per window. */
export interface Windowed {
  /** Something happened: runs the work now when no window is open, else once when it closes. */
  poke(): void;
  /** Forgets a run waiting for its window's end (stop). */
  cancel(): void;
}

/**
 * `run` at most once per `windowMs`: the first poke runs it at once and opens a window; pokes
 * within the window make one more run when it closes (which opens the next). What happened within
 * a window is then taken by one run: a busy feed is a few runs a second, a quiet one is not held
 * back. The timer never holds the process open. A window of 0 runs on every poke.
 */
export function windowed(run: () => void, windowMs: number): Windowed {
  let timer: NodeJS.Timeout | undefined;
  let due = false;
  const open = () => {
    timer = setTimeout(() => {
      timer = undefined;
      if (!due) return;
      due = false;
      run();
      open();
    }, windowMs);
    timer.unref();
  };
  return {
    poke() {
      if (windowMs <= 0) return run();
      if (timer !== undefined) {
        due = true;
        return;
      }
      run();
      open();
    },
    cancel() {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      due = false;
    },
  };
}
