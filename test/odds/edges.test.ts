import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { expectFigure } from '../helpers/figures.js';
import { forSuite, reader } from '../helpers/harness.js';
import { expectError } from '../helpers/responses.js';
import { smallDataset } from '../import/fixture.js';

const URL = '/v1/odds/edges';

interface Ref {
  id: number;
}
interface ValueBet {
  event_id: number;
  position: string;
  operator: Ref;
  price: number | string;
  price_decimal: number;
  fair_probability: number;
  fair_price: number;
  ev_pct: number;
}
interface Arbitrage {
  event_id: number;
  implied_sum: number;
  profit_pct: number;
  payout: number;
  legs: Array<{ position: string; price_decimal: number; operators: Ref[]; stake: number }>;
}
interface Edges {
  devig: string;
  min_edge: number;
  value_bets: ValueBet[];
  value_bets_total: number;
  arbitrages: Arbitrage[];
  arbitrages_total: number;
}

/**
 * Event 110: a moneyline where book 1 is long on home (2.10) and book 2 on away (2.05), the
 * arbitrage of docs/data.md. Event 300: a 1x2 the books price without its draw, long on both
 * sides: no arbitrage, since the legs do not cover a draw.
 */
function dataset() {
  const d = smallDataset();
  d.events.push(
    { id: 110, league_id: 10, start_time: '2030-01-06T00:30:00Z', home_team_id: 1000, away_team_id: 1001 },
    { id: 300, league_id: 20, start_time: '2030-01-06T20:00:00Z', home_team_id: 2000, away_team_id: 2001 },
  );
  d.odds.push(
    { id: 50, event_id: 110, operator_id: 1, betting_market_id: 1, position: 'home', price_decimal: 2.1 },
    { id: 51, event_id: 110, operator_id: 1, betting_market_id: 1, position: 'away', price_decimal: 1.8 },
    { id: 52, event_id: 110, operator_id: 2, betting_market_id: 1, position: 'home', price_decimal: 1.8 },
    { id: 53, event_id: 110, operator_id: 2, betting_market_id: 1, position: 'away', price_decimal: 2.05 },
    { id: 54, event_id: 300, operator_id: 1, betting_market_id: 1, position: 'home', price_decimal: 3 },
    { id: 55, event_id: 300, operator_id: 2, betting_market_id: 1, position: 'away', price_decimal: 3 },
    { id: 56, event_id: 300, operator_id: 2, betting_market_id: 1, position: 'draw', price_decimal: 3 },
  );
  return d;
}

describe.each(DIALECTS)('POST /v1/odds/edges (%s)', (dialect) => {
  const h = forSuite(() => reader({ dialect, dataset: dataset() }));
  const edges = (body: Record<string, unknown>) => h.ok<Edges>(URL, body);

  it('value bets: EV% against the consensus fair probability, at least min_edge, the largest first', async () => {
    // Medians: home 1.95, away 1.925; multiplicative fair home 0.49678, away 0.50322.
    const r = 1 / 1.95 + 1 / 1.925;
    const pHome = 1 / 1.95 / r;
    const pAway = 1 / 1.925 / r;
    const all = await edges({ event_ids: [110], min_edge: -100 });
    expect(all.value_bets_total).toBe(4);
    expect(all.value_bets.map((b) => b.ev_pct)).toEqual([...all.value_bets.map((b) => b.ev_pct)].sort((a, b) => b - a));
    const answer = await edges({ event_ids: [110], min_edge: 3 });
    expect(answer).toMatchObject({ devig: 'multiplicative', min_edge: 3, value_bets_total: 2 });
    expect(answer.value_bets.map((b) => [b.position, b.operator.id, b.price_decimal])).toEqual([
      ['home', 1, 2.1],
      ['away', 2, 2.05],
    ]);
    expectFigure(answer.value_bets[0]?.fair_probability, pHome, 'fair_probability');
    expectFigure(answer.value_bets[0]?.ev_pct, (2.1 * pHome - 1) * 100, 'home ev_pct');
    expectFigure(answer.value_bets[1]?.ev_pct, (2.05 * pAway - 1) * 100, 'away ev_pct');
    expectFigure(answer.value_bets[0]?.fair_price, 1 / pHome, 'fair_price');
    expect((await edges({ event_ids: [110], min_edge: 4 })).value_bets.map((b) => b.position)).toEqual(['home']);
  });

  it('arbitrage: the best price of each outcome across books, with the stakes per 100 units that lock the margin', async () => {
    const answer = await edges({ event_ids: [110, 300] });
    expect(answer.arbitrages_total).toBe(1);
    const [arb] = answer.arbitrages;
    const sum = 1 / 2.1 + 1 / 2.05;
    expect(arb?.event_id).toBe(110);
    expectFigure(arb?.implied_sum, sum, 'implied_sum');
    expectFigure(arb?.payout, 100 / sum, 'payout');
    expectFigure(arb?.profit_pct, (1 / sum - 1) * 100, 'profit_pct');
    // data.md's worked example: 49.40 and 50.60 return 103.73 either way.
    expect(arb?.legs.map((l) => [l.position, l.price_decimal, l.operators.map((o) => o.id), Number(l.stake.toFixed(2))])).toEqual([
      ['away', 2.05, [2], 50.6],
      ['home', 2.1, [1], 49.4],
    ]);
    for (const leg of arb?.legs ?? []) expectFigure(leg.stake, (100 / leg.price_decimal) / sum, `${leg.position} stake`);
    expect(Number(arb?.payout.toFixed(2))).toBe(103.73);
  });

  it('one book alone has no arbitrage; odds_format shapes the prices', async () => {
    expect((await edges({ event_ids: [110], operator_ids: [1] })).arbitrages).toEqual([]);
    const american = await edges({ event_ids: [110], odds_format: 'american', min_edge: 4 });
    expect(american.value_bets[0]?.price).toBe(110);
  });

  it('edges are for the pro and enterprise tiers', async () => {
    const free = h.t.as(await h.t.client({ tier: 'free' }));
    expectError(await free.post(URL, { event_ids: [110] }), 403, 'FORBIDDEN');
    const enterprise = h.t.as(await h.t.client({ tier: 'enterprise' }));
    expect((await enterprise.post(URL, { event_ids: [110] })).statusCode).toBe(200);
  });
});
