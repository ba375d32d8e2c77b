import { describe, expect, it } from 'vitest';
import { manualClock } from '../../src/platform/clock.js';
import { DIALECTS } from '../helpers/app.js';
import { harness } from '../helpers/harness.js';
import { moves, opening, results } from './fixture.js';

/** The read of an event's closing prices: its price history before its start (grading.repository.ts closingOf). */
const readsClosing = (sql: string) => sql.includes('from "odds_history" as "h" inner join "events" as "e"') && sql.includes('"h"."changed_at" < "e"."start_time"');
/** The read of one market's rows, which the closing-line value is computed from (results.repository.ts marketRows). */
const readsMarketRows = (sql: string) => /^select .* from "odds" where "event_id" = (\?|\$\d+) and "betting_market_id" = (\?|\$\d+) order by "id"$/.test(sql);

// The signals' grader valued each signal's legs against the close in a call of its own, and each
// call read its event's whole price history before the start and its market's rows again: a batch
// of a day's signals read the same events' histories once per signal (seconds of a demo's load).
describe.each(DIALECTS)('grading a batch of signals (%s)', (dialect) => {
  it('reads the closing prices of its events once, and each market\'s rows once', async () => {
    const statements: string[] = [];
    // Before the games' start, whatever the day: the cancelled game 202 has then never closed.
    const h = await harness({ dialect, clock: manualClock(Date.parse('2031-02-01T00:00:00Z')), onQuery: (sql) => void statements.push(sql) });
    try {
      await h.import(opening());
      await h.ctx.signals.run();
      await h.import(moves());
      await h.ctx.signals.run();
      statements.length = 0;
      // Games 200, 201 and 203 end (203 with two signals, a value bet and an arbitrage); 202 is cancelled before its start, so it never closed.
      await h.import(results());
      await h.ctx.signals.run();
      // One read by the odds' grading of the four events, one by the signals' grader for the three that closed.
      // From the signals' grader's first read of the signals of the graded events (the odds' grading of the import reads before it).
      const grader = statements.slice(statements.findIndex((sql) => sql.startsWith('select * from "signals" where "event_id" in')));
      expect(grader.length).toBeLessThan(statements.length);
      // The three events that closed, in one read.
      expect(grader.filter(readsClosing)).toHaveLength(1);
      // One market (the moneyline) of each of them.
      expect(grader.filter(readsMarketRows)).toHaveLength(3);
      const graded = await h.database.db.selectFrom('signals').select(['event_id', 'outcome', 'clv_pct']).where('graded_at', 'is not', null).orderBy('id').execute();
      expect(graded.map((s) => [Number(s.event_id), s.outcome, s.clv_pct === null ? null : Number(Number(s.clv_pct).toFixed(6))])).toEqual(
        expect.arrayContaining([
          [200, 'won', 5],
          [201, 'lost', 10],
          [202, 'void', null],
          [203, 'lost', 7.5],
          [203, 'won', 2.256098],
        ]),
      );
    } finally {
      await h.close();
    }
  });
});
