import type { SourceBatch } from '../source-batch.js';

/** Stub until The Odds API reader lands: every answer is refused as unread. */
export function readTheOddsApi(body: unknown, _options: { oddsFormat: 'decimal' | 'american'; kind?: 'odds' | 'snapshot' | 'scores' }): SourceBatch {
  return { source: 'the-odds-api', rows: [], problems: Array.isArray(body) && body.length === 0 ? [] : [{ row: 1, column: '', message: 'The Odds API reader is not built yet' }] };
}
