import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Streams handed one read's frames per turn of the event loop. Each write to a stream goes through
 * its socket; to thousands of streams in one turn they would hold back every request, import and
 * heartbeat of the node for as long, so the fan-out leaves the loop between slices.
 */
export const STREAMS_PER_TURN = 100;

/**
 * Hands `deliver` each stream in order, `perTurn` of them per turn of the event loop. The caller
 * awaits it before the next read's fan-out starts, so each stream gets the reads in their order.
 * A stream is taken as it is when its slice comes (it may have gone live, fallen behind or closed
 * meanwhile): `deliver` looks at it then.
 */
export async function fanOut<T>(streams: Iterable<T>, deliver: (stream: T) => void, perTurn = STREAMS_PER_TURN): Promise<void> {
  let inSlice = 0;
  for (const stream of [...streams]) {
    if (inSlice === perTurn) {
      await nextTurn();
      inSlice = 0;
    }
    deliver(stream);
    inSlice += 1;
  }
}
