import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { forSuite, harness } from '../helpers/harness.js';
import { BASKETBALL, CANCELLED, eventsOf, HOCKEY, POSTPONED, resultsDataset } from '../results/fixture.js';
import { lastOutboxId, type OutboxEntry, outboxAfter } from './outbox.js';

/**
 * result.graded is written by the grading transaction (decision 0312): one row per event it gave a
 * grade, with the grades as POST /v1/results/by-event names them; a regrade says so, and an event
 * whose grades stay as they were is told nothing.
 */

interface Grade {
  odds_id: number;
  event_betting_market_position_id: number | null;
  outcome: string | null;
  reason: string | null;
  numbers: unknown;
  closing_price: number | null;
  graded_at: string;
}
type ShownGrade = Grade & { operator: { id: number }; betting_market: { id: number }; event_id: number; price_decimal: number; superseded_at: string | null };
const gradesOf = (entry: OutboxEntry | undefined) => (entry?.data.grades ?? []) as Grade[];

describe.each(DIALECTS)('the outbox of grades (%s)', (dialect) => {
  const h = forSuite(async () => {
    const t = await harness({ dialect });
    // What the transactions write is read here: the former, which takes the rows (and deletes them) after each import, is stopped.
    await t.ctx.webhookFormer.stop();
    return t;
  });

  it('the first grading writes one result.graded per graded event, its grades as the results answer shows them', async () => {
    await h.admin.ok('/admin/v1/import', resultsDataset());
    const rows = (await outboxAfter(h)).filter((r) => r.type === 'result.graded');
    // The postponed game's rows are told too: as the results answer shows them, without an outcome, `postponed` saying why.
    expect(rows.map((r) => [r.event_id, r.data.regrade])).toEqual([
      [BASKETBALL, false],
      [HOCKEY, false],
      [CANCELLED, false],
      [POSTPONED, false],
    ]);
    expect(rows.map((r) => [r.sport_id, r.league_id])).toEqual([
      [1, 10],
      [2, 20],
      [1, 10],
      [2, 20],
    ]);
    expect(gradesOf(rows[3]).map((g) => [g.outcome, g.reason])).toEqual([
      [null, 'postponed'],
      [null, 'postponed'],
    ]);
    const { apiKey } = await h.client({ tier: 'pro' });
    const answer = await h.as({ apiKey }).ok<{ grades: ShownGrade[] }>('/v1/results/by-event', { event_id: BASKETBALL });
    const told = gradesOf(rows[0]);
    expect(told.map((g) => g.odds_id)).toEqual(answer.grades.map((g) => g.odds_id));
    // The answer's grade, its operator and market by id, its event and price (not part of a grade) left out.
    const asTold = ({ operator, betting_market, event_id: _event, price_decimal: _price, superseded_at: _superseded, ...rest }: ShownGrade) => ({
      ...rest,
      operator_id: operator.id,
      betting_market_id: betting_market.id,
    });
    expect(told).toEqual(answer.grades.map(asTold));
  });

  it('a correction of a score regrades its event: event.updated, then result.graded with regrade true and only the grades that changed', async () => {
    const from = await lastOutboxId(h);
    const corrected = eventsOf({ home: 104, away: 110 });
    await h.admin.ok('/admin/v1/import', { events: corrected });
    const rows = await outboxAfter(h, from);
    expect(rows.map((r) => [r.type, r.event_id])).toEqual([
      ['event.updated', BASKETBALL],
      ['result.graded', BASKETBALL],
    ]);
    expect(rows[0]?.data.changed).toEqual(['score']);
    expect(rows[1]?.data.regrade).toBe(true);
    const moneyline = gradesOf(rows[1]).filter((g) => g.odds_id === 1 || g.odds_id === 2);
    expect(moneyline.map((g) => [g.odds_id, g.outcome])).toEqual([
      [1, 'lost'],
      [2, 'won'],
    ]);
  });

  it('grading again with nothing changed writes nothing', async () => {
    const from = await lastOutboxId(h);
    await h.admin.ok('/admin/v1/import', { events: eventsOf({ home: 104, away: 110 }) });
    expect(await outboxAfter(h, from)).toEqual([]);
  });
});
