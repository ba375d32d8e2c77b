import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { forSuite, harness } from '../helpers/harness.js';
import { OPENED, references, START } from './fixture.js';

interface BoardItem {
  event_betting_market_position_id: number | null;
  event_period_id: number | null;
  player_id: number | null;
  position: string;
  betting_market: { id: number };
  fair: { consensus: { price: number | null } };
}
interface ClvResult {
  event_betting_market_position_id: number;
  fair_closing_price: number | null;
  clv_pct: number | null;
  reason: string | null;
}

const EVENT = 700;
const TATUM = 5000;
const BRUNSON = 5001;

/**
 * A game under way whose prices all closed before the start: the full game's moneyline and the
 * first half's, at no line either; and two players' points at the same line, whose positions say
 * only `over` and `under` and name the player by `player_id`. Each market's prices differ from
 * the others', so a closing price pooled across two of them comes out wrong.
 */
function dataset() {
  const row = (id: number, operator_id: number, betting_market_id: number, position: string, price_decimal: number, more: Record<string, unknown> = {}) =>
    ({ id, event_id: EVENT, operator_id, betting_market_id, position, price_decimal, updated_at: OPENED, ...more });
  const half = { event_period_id: 2 };
  const tatum = { player_id: TATUM, line: 26.5 };
  const brunson = { player_id: BRUNSON, line: 26.5 };
  return {
    ...references,
    events: [{ id: EVENT, league_id: 10, start_time: new Date(START).toISOString(), status: 'live', home_team_id: 1000, away_team_id: 1001 }],
    odds: [
      row(1, 1, 1, 'home', 1.5), row(2, 1, 1, 'away', 2.6), row(3, 2, 1, 'home', 1.63), row(4, 2, 1, 'away', 2.35),
      row(5, 1, 1, 'home', 2.2, half), row(6, 1, 1, 'away', 1.7, half), row(7, 2, 1, 'home', 2.3, half), row(8, 2, 1, 'away', 1.62, half),
      row(9, 1, 5, 'over', 1.8, tatum), row(10, 1, 5, 'under', 2.0, tatum), row(11, 2, 5, 'over', 1.85, tatum), row(12, 2, 5, 'under', 1.95, tatum),
      row(13, 1, 5, 'over', 2.3, brunson), row(14, 1, 5, 'under', 1.6, brunson), row(15, 2, 5, 'over', 2.2, brunson), row(16, 2, 5, 'under', 1.65, brunson),
    ],
  };
}

describe.each(DIALECTS)('closing-line value over the board\'s markets (%s)', (dialect) => {
  const h = forSuite(() => harness({ dialect }));
  const pro = async () => h.as({ apiKey: (await h.client({ tier: 'pro' })).apiKey });

  it('two players whose positions say only over and under have a selection each', async () => {
    await h.import(dataset());
    const items = (await (await pro()).page<BoardItem>('/v1/odds/board', { event_ids: [EVENT], betting_market_ids: [5], page_size: 100 })).results;
    expect(items.map((i) => [i.player_id, i.position])).toEqual([[TATUM, 'over'], [TATUM, 'under'], [BRUNSON, 'over'], [BRUNSON, 'under']]);
    expect(new Set(items.map((i) => i.event_betting_market_position_id)).size).toBe(4);
    const stored = await h.ctx.database.db.selectFrom('odds').select(['id', 'selection_id']).where('event_id', '=', EVENT).where('betting_market_id', '=', 5).orderBy('id').execute();
    const idOf = new Map(stored.map((r) => [Number(r.id), Number(r.selection_id)]));
    // Both books' rows of one player's over are one selection; the other player's over is another.
    expect(idOf.get(9)).toBe(idOf.get(11));
    expect(idOf.get(13)).toBe(idOf.get(15));
    expect(idOf.get(9)).not.toBe(idOf.get(13));
    // A flow on a side alone finds its focus player's selection.
    const flow = (id: number, player: number) => ({
      id, flow_type: 'fact', event_id: EVENT, focus_entity_type: 'player', focus_entity_id: player, betting_market_id: 5, split: 'over', line: 26.5,
      description: 'Over 26.5 points in 7 of the last 10 games', hits: 7, total: 10, likelihood: 'possible',
    });
    await h.import({ flows: [flow(1, BRUNSON), flow(2, TATUM)] });
    const flows = await h.ctx.database.db.selectFrom('flows').select(['id', 'selection_id']).orderBy('id').execute();
    expect(flows.map((f) => Number(f.selection_id))).toEqual([idOf.get(13), idOf.get(9)]);
  });

  it('the fair closing price of every selection is the board\'s consensus fair price of its market', async () => {
    const caller = await pro();
    const items = (await caller.page<BoardItem>('/v1/odds/board', { event_ids: [EVENT], page_size: 100 })).results;
    expect(items).toHaveLength(8);
    const answer = await caller.ok<{ results: ClvResult[] }>('/v1/results/clv', {
      prices: items.map((i) => ({ event_betting_market_position_id: i.event_betting_market_position_id, operator_id: 1, price: 2 })),
    });
    items.forEach((item, n) => {
      const what = `${item.betting_market.id} ${item.event_period_id} ${item.player_id} ${item.position}`;
      const fair = item.fair.consensus.price ?? Number.NaN;
      expect(answer.results[n]?.reason, what).toBeNull();
      expect(answer.results[n]?.fair_closing_price, what).toBeCloseTo(fair, 5);
      expect(answer.results[n]?.clv_pct, what).toBeCloseTo((2 / fair - 1) * 100, 3);
    });
    // The full game's home: medians 1.565 and 2.475, not the first half's prices mixed in.
    const home = 1 / 1.565 / (1 / 1.565 + 1 / 2.475);
    const fullGameHome = items.findIndex((i) => i.betting_market.id === 1 && i.event_period_id === null && i.position === 'home');
    expect(answer.results[fullGameHome]?.fair_closing_price).toBeCloseTo(1 / home, 5);
  });
});
