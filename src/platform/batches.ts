/**
 * Writes that arrive close together, made as one: what is added while a flush is on its way (or
 * within the turn of the event loop that added the first) goes in the next flush, so that many
 * small writes ending at once (the attempts of many webhook endpoints) make one transaction, not
 * one each. Each add resolves once the flush that carried it has, or rejects with its failure.
 */
export function createBatches<T>(flush: (items: T[]) => Promise<void>): (item: T) => Promise<void> {
  let queue: Array<{ item: T; done: () => void; failed: (error: unknown) => void }> = [];
  let busy = false;
  const drain = async () => {
    while (queue.length > 0) {
      const taken = queue;
      queue = [];
      try {
        await flush(taken.map((entry) => entry.item));
        for (const entry of taken) entry.done();
      } catch (error) {
        for (const entry of taken) entry.failed(error);
      }
    }
    busy = false;
  };
  return (item) =>
    new Promise<void>((done, failed) => {
      queue.push({ item, done, failed });
      if (busy) return;
      busy = true;
      setImmediate(() => void drain());
    });
}
