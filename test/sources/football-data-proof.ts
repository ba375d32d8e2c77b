import { expect } from 'vitest';
import type { Caller } from '../helpers/harness.js';
import { fairClosingPrice, lastPrices, type Match, matchesOf, outcomeOf, type Quote } from './football-data-expected.js';

/**
 * Checks through the public API that a loaded football-data file says what its CSV text says:
 * each match's scores, each book's current prices on the board, every odds row's grade and
 * closing price, and the closing-line value of each pre-closing price. The expected figures are
 * worked out by football-data-expected.ts from the text, never by the service's reader.
 */

interface Ref {
  id: number;
  key: string;
  name: string;
}
interface HistoricalEvent {
  id: number;
  start_time: string;
  status: string;
  home_team: Ref;
  away_team: Ref;
  home_score: number | null;
  away_score: number | null;
}
export interface Grade {
  event_betting_market_position_id: number;
  operator: Ref;
  betting_market: Ref;
  position: string;
  line: number | null;
  price_decimal: number;
  outcome: string | null;
  closing_price: number | null;
  closing_line: number | null;
}
interface EventResults {
  home_score: number | null;
  away_score: number | null;
  periods: Array<{ event_period: Ref; home_score: number; away_score: number }>;
  grades: Grade[];
}
interface BoardItem {
  event_id: number;
  betting_market: Ref;
  position: string;
  prices: Array<{ operator: Ref; price_decimal: number; line: number | null }>;
  best: { price_decimal: number };
}
interface Clv {
  closing_price: number | null;
  fair_closing_price: number | null;
  clv_pct: number | null;
  reason: string | null;
}

const rowKey = (q: { book: string; market: string; position: string; line: number | null }) => `${q.book}/${q.market}/${q.position}/${q.line ?? ''}`;
const gradeKey = (g: Grade) => rowKey({ book: g.operator.key, market: g.betting_market.key, position: g.position, line: g.line });

/** Each book's price of a selection at the closing instant: its closing price, else its pre-closing one (at whatever line). */
function currentOf(match: Match): Map<string, Quote> {
  const current = new Map<string, Quote>();
  for (const q of [...match.quotes].sort((a, b) => Number(a.closing) - Number(b.closing))) current.set(`${q.book}/${q.market}/${q.position}`, q);
  return current;
}

export async function proveLoaded(api: Caller, csv: string, days: { start: string; end: string }): Promise<void> {
  const matches = matchesOf(csv);
  const events = (await api.page<HistoricalEvent>(`/v1/historical/events?start_date=${days.start}&end_date=${days.end}&page_size=100`)).results;
  expect(events).toHaveLength(matches.length);
  const clvAsked: Array<{ ask: { event_betting_market_position_id: number; operator_id: number; price: number }; fair: number | undefined; what: string }> = [];
  const boardEvents: Array<{ id: number; match: Match }> = [];

  for (const match of matches) {
    const what = `${match.day} ${match.home}-${match.away}`;
    const event = events.find((e) => e.home_team.name === match.home && e.away_team.name === match.away);
    expect(event, what).toBeDefined();
    if (!event) continue;
    expect([event.status, event.home_score, event.away_score], what).toEqual(['final', ...match.fullTime]);

    const results = await api.ok<EventResults>('/v1/results/by-event', { event_id: event.id });
    const firstHalf = results.periods.find((p) => p.event_period.key === '1st-half');
    expect(firstHalf && [firstHalf.home_score, firstHalf.away_score], what).toEqual(match.halfTime);

    // Every odds row graded on the full-time score, with its last price before the start as its closing price.
    const rows = lastPrices(match);
    const grades = new Map(results.grades.map((g) => [gradeKey(g), g]));
    expect([...grades.keys()].sort(), what).toEqual([...rows.keys()].sort());
    for (const [key, q] of rows) {
      const grade = grades.get(key);
      expect({ outcome: grade?.outcome, price: grade?.price_decimal, closing_price: grade?.closing_price, closing_line: grade?.closing_line }, `${what} ${key}`).toEqual({
        outcome: outcomeOf(q, match.fullTime),
        price: q.price,
        closing_price: q.price,
        closing_line: q.line,
      });
    }
    for (const q of match.quotes.filter((p) => !p.closing)) {
      const grade = grades.get(rowKey(q));
      if (grade) clvAsked.push({ ask: { event_betting_market_position_id: grade.event_betting_market_position_id, operator_id: grade.operator.id, price: q.price }, fair: fairClosingPrice(match, q), what: `${what} ${rowKey(q)}` });
    }
    if (match.quotes.length > 0) boardEvents.push({ id: event.id, match });
  }

  await proveBoard(api, boardEvents);
  for (let at = 0; at < clvAsked.length; at += 100) {
    const batch = clvAsked.slice(at, at + 100);
    const answer = await api.ok<{ results: Clv[] }>('/v1/results/clv', { prices: batch.map((b) => b.ask) });
    batch.forEach(({ ask, fair, what }, i) => {
      const got = answer.results[i];
      if (fair === undefined) {
        expect(got?.clv_pct ?? null, `${what}: no closing price`).toBeNull();
        return;
      }
      const expected = (ask.price / fair - 1) * 100;
      expect(Math.abs((got?.clv_pct ?? NaN) - expected), `${what}: CLV% ${got?.clv_pct} against ${expected}`).toBeLessThanOrEqual(1e-6);
    });
  }
}

/** The board's best price of each selection: the highest of the books' prices at the closing instant. */
async function proveBoard(api: Caller, events: ReadonlyArray<{ id: number; match: Match }>): Promise<void> {
  if (events.length === 0) return;
  const items: BoardItem[] = [];
  for (let page = 1; ; page++) {
    const answer = await api.page<BoardItem>('/v1/odds/board', { event_ids: events.map((e) => e.id), page, page_size: 100 });
    items.push(...answer.results);
    if (page >= answer.total_pages) break;
  }
  for (const { id, match } of events) {
    const current = [...currentOf(match).values()];
    const selections = new Set(current.map((q) => `${q.market}/${q.position}`));
    const onBoard = items.filter((i) => i.event_id === id);
    expect(onBoard.map((i) => `${i.betting_market.key}/${i.position}`).sort(), `${match.home}-${match.away}`).toEqual([...selections].sort());
    for (const item of onBoard) {
      const quotes = current.filter((q) => `${q.market}/${q.position}` === `${item.betting_market.key}/${item.position}`);
      const what = `${match.home}-${match.away} ${item.betting_market.key}/${item.position}`;
      expect(item.prices.map((p) => [p.operator.key, p.price_decimal, p.line]).sort(), what).toEqual(quotes.map((q) => [q.book, q.price, q.line]).sort());
      expect(item.best.price_decimal, what).toBe(Math.max(...quotes.map((q) => q.price)));
    }
  }
}
