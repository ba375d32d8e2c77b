import type { SourceBatch } from '../source-batch.js';

/** Stub until the football-data reader lands: every file is refused as unread. */
export function readFootballData(text: string): SourceBatch {
  return { source: 'football-data', rows: [], problems: text.trim() === '' ? [] : [{ row: 1, column: '', message: 'the football-data reader is not built yet' }] };
}
