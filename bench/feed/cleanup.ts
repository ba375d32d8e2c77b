/**
 * What a run must undo even when it is interrupted: servers, throwaway databases, worktrees. Each
 * is undone by the `finally` of the code that made it; on SIGINT or SIGTERM, which end the process
 * without running those, whatever is still pending is undone here before exiting.
 */
const pending = new Set<() => Promise<void> | void>();

let installed = false;
/** The undoing after a signal, which ends the process once done. */
let interrupted: Promise<never> | undefined;

function installSignalHandlers(): void {
  if (installed) return;
  installed = true;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      interrupted ??= (async () => {
        for (const undo of [...pending].reverse()) {
          pending.delete(undo);
          try {
            await undo();
          } catch (error) {
            process.stderr.write(`cleanup after ${signal}: ${String(error)}\n`);
          }
        }
        return process.exit(130);
      })();
    });
  }
}

/** Runs `use` with `undo` pending: undone once, after `use`, on success, on failure or on a signal. */
export async function guarded<T>(undo: () => Promise<void> | void, use: () => Promise<T>): Promise<T> {
  installSignalHandlers();
  pending.add(undo);
  try {
    return await use();
  } catch (error) {
    // Undoing stops servers the run is using, so the run fails meanwhile: the undoing finishes first, then ends the process.
    if (interrupted !== undefined) await interrupted;
    throw error;
  } finally {
    if (pending.delete(undo)) await undo();
  }
}
