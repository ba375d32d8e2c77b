import type { RowProblem, SourceBatch, SourceRow } from './source-batch.js';

const NUL = '\u0000';

/**
 * The batch with its rows that carry U+0000 (NUL) in a text as problems: PostgreSQL can neither
 * store nor compare such text, so a name with one failed the whole import with a 500. Every other
 * text the API reads is refused the same way (NO_NUL); the reader's problems stay first.
 */
export function refuseNul(batch: SourceBatch): SourceBatch {
  const problems: RowProblem[] = batch.rows.flatMap((row) => {
    const field = fieldWithNul(row);
    return field === undefined ? [] : [{ row: row.row, column: field, message: 'text with U+0000 (NUL)' }];
  });
  return problems.length === 0 ? batch : { ...batch, problems: [...batch.problems, ...problems] };
}

/** The first field of the row whose text holds NUL (a price by its column), or undefined. */
function fieldWithNul(row: SourceRow): string | undefined {
  const texts: Array<[string, string | undefined]> = [
    ['league', row.league.sourceKey],
    ['league', row.league.name],
    ['home', row.home],
    ['away', row.away],
    ['startTime', row.startTime],
    // Last: football-data's key is made of the names above.
    ['eventKey', row.eventKey],
  ];
  const found = texts.find(([, text]) => text?.includes(NUL));
  if (found) return found[0];
  return row.prices.find((p) => p.book.sourceKey.includes(NUL) || p.book.name.includes(NUL) || p.at.includes(NUL))?.column;
}
