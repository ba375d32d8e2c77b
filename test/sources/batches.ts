import type { SourceBatch, SourceRow } from '../../src/modules/sources/index.js';

const EPL = { sourceKey: 'E0', key: 'premier-league', name: 'Premier League', sport: { key: 'soccer', name: 'Soccer' }, country: { key: 'england', name: 'England' } };
const PINNACLE = { sourceKey: 'PS', key: 'pinnacle', name: 'Pinnacle' };

/** A football-data style row: 1x2 prices of Pinnacle, pre-closing at `at`, closing an hour before kick-off. */
export function row(n: number, home: string, away: string, start: string, prices: { home: number; draw: number; away: number }, closing?: { home: number; draw: number; away: number }): SourceRow {
  const at = new Date(Date.parse(start) - 86_400_000).toISOString();
  const close = new Date(Date.parse(start) - 3_600_000).toISOString();
  const points = (p: { home: number; draw: number; away: number }, when: string, suffix: string) =>
    (['home', 'draw', 'away'] as const).map((position) => ({ book: PINNACLE, market: 'match-result' as const, position, price: p[position], at: when, column: `PS${position[0]?.toUpperCase()}${suffix}` }));
  return {
    row: n,
    eventKey: `E0/${start.slice(0, 10)}/${home}/${away}`,
    league: EPL,
    home,
    away,
    startTime: start,
    prices: [...points(prices, at, ''), ...(closing ? points(closing, close, 'C') : [])],
  };
}

export function batch(source: SourceBatch['source'], rows: SourceRow[], problems: SourceBatch['problems'] = []): SourceBatch {
  return { source, rows, problems };
}
