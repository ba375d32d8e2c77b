import { createHash } from 'node:crypto';
import type { SourceRow } from '../source-batch.js';

/**
 * What the feed has handed the importer, row by row: an event's row is handed again only when
 * something the import stores of it changed (its names, start, result or any price, a price's time
 * included), so a poll that finds the board as it was imports nothing. Held in memory: a node that
 * takes the lease over starts empty and hands everything once, which the import takes as no change.
 */
export interface SeenRows {
  /** The rows of `rows` that differ from what was last handed over under the same key. */
  changed(endpoint: string, rows: readonly SourceRow[]): SourceRow[];
  /** Records `rows` as handed over (after the importer took them). */
  remember(endpoint: string, rows: readonly SourceRow[]): void;
  /** Forgets everything: the lease went to another node, whose imports this one does not see. */
  clear(): void;
}

/** Bounds the memory of a feed that follows many sports for long: older events are forgotten first. */
const MAX_SEEN = 50_000;

export function createSeenRows(): SeenRows {
  const seen = new Map<string, string>();
  const keyOf = (endpoint: string, row: SourceRow) => `${endpoint}\u0000${row.eventKey}`;
  return {
    changed: (endpoint, rows) => rows.filter((row) => seen.get(keyOf(endpoint, row)) !== fingerprint(row)),
    remember(endpoint, rows) {
      for (const row of rows) {
        const key = keyOf(endpoint, row);
        seen.delete(key);
        seen.set(key, fingerprint(row));
      }
      for (const key of seen.keys()) {
        if (seen.size <= MAX_SEEN) break;
        seen.delete(key);
      }
    },
    clear: () => seen.clear(),
  };
}

/** Everything of a row but its place in the answer (`row`, each price's `column`), which moves when the answer's order does. */
function fingerprint(row: SourceRow): string {
  const { row: _row, prices, ...rest } = row;
  const stored = prices.map(({ column: _column, ...price }) => price);
  return createHash('sha256').update(JSON.stringify([rest, stored])).digest('base64');
}
