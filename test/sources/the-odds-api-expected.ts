import { readFileSync } from 'node:fs';

/**
 * What an answer of The Odds API should become, worked out from its JSON alone, without the
 * service's reader: the market table of docs/sources/the-odds-api.md written out here on its own.
 */

/** A sample answer of examples/the-odds-api, as text. */
export const recorded = (file: string): string => readFileSync(new URL(`../../examples/the-odds-api/${file}`, import.meta.url), 'utf8');

export interface OddsApiOutcome {
  name: string;
  price: number;
  point?: number;
}
export interface OddsApiEvent {
  id: string;
  sport_key: string;
  sport_title?: string;
  commence_time: string;
  home_team: string;
  away_team: string;
  bookmakers: Array<{ key: string; title: string; last_update: string; markets: Array<{ key: string; last_update?: string; outcomes: OddsApiOutcome[] }> }>;
}
export interface OddsApiScore {
  id: string;
  home_team: string;
  away_team: string;
  completed: boolean;
  scores: Array<{ name: string; score: string }> | null;
}

/** One price of an answer, as our odds row and history point should show it. */
export interface OddsApiQuote {
  event: string;
  book: string;
  market: 'match-result' | 'moneyline' | 'total' | 'spread';
  position: string;
  line: number | null;
  price: number;
  at: string;
}

const MARKETS: Readonly<Record<string, OddsApiQuote['market']>> = { spreads: 'spread', totals: 'total' };

export const quoteKey = (q: Pick<OddsApiQuote, 'book' | 'market' | 'position' | 'line'>) => `${q.book}/${q.market}/${q.position}/${q.line ?? ''}`;

/** Every price of an odds answer (its events' bookmakers' markets' outcomes). */
export function quotesOf(events: readonly OddsApiEvent[]): OddsApiQuote[] {
  return events.flatMap((e) =>
    e.bookmakers.flatMap((b) =>
      b.markets.flatMap((m) =>
        m.outcomes.map((o) => {
          const position = m.key === 'totals' ? o.name.toLowerCase() : o.name === e.home_team ? 'home' : o.name === e.away_team ? 'away' : 'draw';
          const market = MARKETS[m.key] ?? (m.outcomes.length === 3 ? 'match-result' : 'moneyline');
          return { event: e.id, book: b.key, market, position, line: o.point ?? null, price: o.price, at: new Date(m.last_update ?? b.last_update).toISOString() };
        }),
      ),
    ),
  );
}

/** The answer with each decimal price written as The Odds API writes American odds (whole numbers). */
export function toAmerican(events: readonly OddsApiEvent[]): OddsApiEvent[] {
  const american = (d: number) => (d >= 2 ? Math.round((d - 1) * 100) : -Math.round(100 / (d - 1)));
  return events.map((e) => ({ ...e, bookmakers: e.bookmakers.map((b) => ({ ...b, markets: b.markets.map((m) => ({ ...m, outcomes: m.outcomes.map((o) => ({ ...o, price: american(o.price) })) })) })) }));
}

/** An American price as a decimal one: +150 pays 150 on 100, −200 pays 100 on 200. */
export const fromAmerican = (a: number) => (a > 0 ? 1 + a / 100 : 1 + 100 / -a);

/** A scores item's score as [home, away], undefined before the start. */
export function scoreOf(item: OddsApiScore): [number, number] | undefined {
  if (item.scores === null) return undefined;
  const of = (team: string) => Number(item.scores?.find((s) => s.name === team)?.score);
  return [of(item.home_team), of(item.away_team)];
}
