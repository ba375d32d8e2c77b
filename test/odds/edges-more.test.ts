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
interface Leg {
  position: string;
  line: number | null;
  price: number | string;
  price_decimal: number;
  operators: Ref[];
  stake?: number;
}
interface Middle {
  event_id: number;
  betting_market: Ref;
  window: { low: number; high: number };
  legs: Leg[];
  payout_outside: number;
  profit_pct_outside: number;
  payout_inside: number;
  profit_pct_inside: number;
}
interface Edges {
  value_bets: Array<{ event_id: number; position: string; operator: Ref; price_decimal: number; fair_probability: number; ev_pct: number; kelly_stake: number }>;
  value_bets_total: number;
  arbitrages_total: number;
  kelly_fraction: number;
  devig_reference_operator_id: number | null;
  middles: Middle[];
  middles_total: number;
  max_hold?: number;
  low_hold_markets?: Array<{ event_id: number; hold: number; legs: Leg[] }>;
  low_hold_markets_total?: number;
}

/**
 * The hand-worked examples of docs/data.md (#middles, #low-hold-markets, #kelly-stakes,
 * #a-reference-book). Event 400: a total, book 1 over 2.5 at 1.95, book 2 under 3.5 at 1.90.
 * Book 2 also has the alternate line 4.5 (under 1.60, over 2.30). Event 410: a spread, book 1 home −3.5 at 1.91, book 2 away +4.5 at 1.91. Event 420: a moneyline,
 * book 3 (the sharp one) at 1.92 either way, book 1 home 2.06 / away 1.75, book 2 home 2.02 / away
 * 1.80. Event 430: a moneyline book 3 does not price.
 */
function dataset() {
  const d = smallDataset();
  d.operators.push({ id: 3, key: 'sharpbook', name: 'Sharpbook' });
  d.betting_markets.push({ id: 4, key: 'spread', name: 'Spread', category_id: 1, entity_type: 'team' });
  d.events.push(
    { id: 400, league_id: 10, start_time: '2030-01-07T00:30:00Z', home_team_id: 1000, away_team_id: 1001 },
    { id: 410, league_id: 10, start_time: '2030-01-07T01:30:00Z', home_team_id: 1000, away_team_id: 1001 },
    { id: 420, league_id: 10, start_time: '2030-01-07T02:30:00Z', home_team_id: 1000, away_team_id: 1001 },
    { id: 430, league_id: 10, start_time: '2030-01-07T03:30:00Z', home_team_id: 1000, away_team_id: 1001 },
  );
  const odds = (id: number, event_id: number, operator_id: number, betting_market_id: number, position: string, line: number | null, price_decimal: number) =>
    ({ id, event_id, operator_id, betting_market_id, position, line, price_decimal });
  d.odds.push(
    odds(60, 400, 1, 2, 'over', 2.5, 1.95),
    odds(61, 400, 1, 2, 'under', 2.5, 1.87),
    odds(62, 400, 2, 2, 'over', 3.5, 1.85),
    odds(63, 400, 2, 2, 'under', 3.5, 1.9),
    odds(64, 410, 1, 4, 'home', -3.5, 1.91),
    odds(65, 410, 1, 4, 'away', 3.5, 1.91),
    odds(66, 410, 2, 4, 'home', -4.5, 1.95),
    odds(67, 410, 2, 4, 'away', 4.5, 1.91),
    odds(70, 420, 3, 1, 'home', null, 1.92),
    odds(71, 420, 3, 1, 'away', null, 1.92),
    odds(72, 420, 1, 1, 'home', null, 2.06),
    odds(73, 420, 1, 1, 'away', null, 1.75),
    odds(74, 420, 2, 1, 'home', null, 2.02),
    odds(75, 420, 2, 1, 'away', null, 1.8),
    { ...odds(68, 400, 2, 2, 'under', 4.5, 1.6), is_main: false },
    { ...odds(69, 400, 2, 2, 'over', 4.5, 2.3), is_main: false },
    odds(76, 430, 1, 1, 'home', null, 2.2),
    odds(77, 430, 2, 1, 'away', null, 2.2),
  );
  return d;
}

describe.each(DIALECTS)('POST /v1/odds/edges: middles, low hold, Kelly, a reference book (%s)', (dialect) => {
  const h = forSuite(() => reader({ dialect, dataset: dataset() }));
  const edges = (body: Record<string, unknown>) => h.ok<Edges>(URL, body);

  it('a total\'s middle: over 2.5 at 1.95 (book 1), under 3.5 at 1.90 (book 2); the stakes pay 96.23 outside the window, 192.47 inside', async () => {
    const answer = await edges({ event_ids: [400] });
    expect(answer.middles_total).toBe(1);
    const [middle] = answer.middles;
    expect(middle?.window).toEqual({ low: 2.5, high: 3.5 });
    expect(middle?.legs.map((l) => [l.position, l.line, l.price_decimal, l.operators.map((o) => o.id)])).toEqual([
      ['over', 2.5, 1.95, [1]],
      ['under', 3.5, 1.9, [2]],
    ]);
    const sum = 1 / 1.95 + 1 / 1.9;
    expectFigure(middle?.legs[0]?.stake, 100 / 1.95 / sum, 'over stake');
    expectFigure(middle?.legs[1]?.stake, 100 / 1.9 / sum, 'under stake');
    expect(middle?.legs.map((l) => Number(l.stake?.toFixed(2)))).toEqual([49.35, 50.65]);
    expectFigure(middle?.payout_outside, 100 / sum, 'payout_outside');
    expectFigure(middle?.profit_pct_outside, (1 / sum - 1) * 100, 'profit_pct_outside');
    expectFigure(middle?.payout_inside, 200 / sum, 'payout_inside');
    expectFigure(middle?.profit_pct_inside, (2 / sum - 1) * 100, 'profit_pct_inside');
    expect([middle?.payout_outside, middle?.payout_inside].map((v) => Number(v?.toFixed(2)))).toEqual([96.23, 192.47]);
  });

  it('a spread\'s middle on the home lead: home −3.5 and away +4.5 at 1.91 each, 50 and 50, 95.50 outside, 191 inside', async () => {
    const answer = await edges({ event_ids: [410], odds_format: 'american' });
    expect(answer.middles.map((m) => [m.window, m.legs.map((l) => [l.position, l.line, l.price, l.stake])])).toEqual([
      [{ low: 3.5, high: 4.5 }, [['home', -3.5, -110, 50], ['away', 4.5, -110, 50]]],
    ]);
    expect(answer.middles[0]).toMatchObject({ payout_outside: 95.5, profit_pct_outside: -4.5, payout_inside: 191, profit_pct_inside: 91 });
  });

  it('with include_alt_lines, an alternate line pairs with a main one: over 2.5 (book 1) and under 4.5 (book 2), the wider window after the cheaper one', async () => {
    const answer = await edges({ event_ids: [400], include_alt_lines: true });
    expect(answer.middles.map((m) => [m.window, m.legs.map((l) => [l.position, l.line, l.operators.map((o) => o.id)])])).toEqual([
      [{ low: 2.5, high: 3.5 }, [['over', 2.5, [1]], ['under', 3.5, [2]]]],
      [{ low: 2.5, high: 4.5 }, [['over', 2.5, [1]], ['under', 4.5, [2]]]],
    ]);
    const sum = 1 / 1.95 + 1 / 1.6;
    expectFigure(answer.middles[1]?.profit_pct_outside, (1 / sum - 1) * 100, 'profit_pct_outside');
  });

  it('with operator_ids, middles are of those books alone: one book has none', async () => {
    expect((await edges({ event_ids: [400, 410], operator_ids: [1] })).middles_total).toBe(0);
    expect((await edges({ event_ids: [400, 410] })).middles.map((m) => m.event_id)).toEqual([400, 410]);
  });

  it('low-hold markets only with max_hold: best home 2.06 (book 1) and away 1.92 (book 3) hold 0.006270', async () => {
    const without = await edges({ event_ids: [420] });
    expect(without).not.toHaveProperty('low_hold_markets');
    expect(without).not.toHaveProperty('max_hold');
    const answer = await edges({ event_ids: [420], max_hold: 0.01 });
    expect(answer.max_hold).toBe(0.01);
    expect(answer.low_hold_markets_total).toBe(1);
    const [market] = answer.low_hold_markets ?? [];
    expectFigure(market?.hold, 1 / 2.06 + 1 / 1.92 - 1, 'hold');
    expect(market?.hold).toBe(0.00627);
    expect(market?.legs.map((l) => [l.position, l.price_decimal, l.operators.map((o) => o.id)])).toEqual([
      ['away', 1.92, [3]],
      ['home', 2.06, [1]],
    ]);
    expect((await edges({ event_ids: [420], max_hold: 0.006 })).low_hold_markets).toEqual([]);
    expect(answer.arbitrages_total).toBe(0);
  });

  it('an arbitrage is a low-hold market too, below 0; the lowest hold first', async () => {
    // Event 430: home 2.20 (book 1) and away 2.20 (book 2) hold 2/2.2 − 1 = −0.090909.
    const answer = await edges({ event_ids: [420, 430], max_hold: 0.01 });
    expect(answer.arbitrages_total).toBe(1);
    expect(answer.low_hold_markets?.map((m) => [m.event_id, m.hold])).toEqual([
      [430, -0.090909],
      [420, 0.00627],
    ]);
  });

  it('Kelly stakes: the consensus makes book 3\'s away 1.92 a value bet, kelly_fraction scales its stake', async () => {
    const pAway = 1 / 1.8 / (1 / 2.02 + 1 / 1.8);
    const full = await edges({ event_ids: [420] });
    expect(full).toMatchObject({ kelly_fraction: 1, devig_reference_operator_id: null, value_bets_total: 1 });
    const [bet] = full.value_bets;
    expect([bet?.position, bet?.operator.id]).toEqual(['away', 3]);
    expectFigure(bet?.fair_probability, pAway, 'fair_probability');
    expectFigure(bet?.ev_pct, (1.92 * pAway - 1) * 100, 'ev_pct');
    expectFigure(bet?.kelly_stake, (1.92 * pAway - 1) / 0.92, 'kelly_stake');
    const half = await edges({ event_ids: [420], kelly_fraction: 0.5 });
    expect(half.kelly_fraction).toBe(0.5);
    expectFigure(half.value_bets[0]?.kelly_stake, (0.5 * (1.92 * pAway - 1)) / 0.92, 'half kelly_stake');
    // A negative EV listed by a negative min_edge has no stake.
    const all = await edges({ event_ids: [420], min_edge: -100 });
    for (const b of all.value_bets) expect(b.kelly_stake === 0, `${b.operator.id} ${b.position}`).toBe(b.ev_pct <= 0);
  });

  it('a reference book: book 3\'s 1.92 either way is fair at 0.5; book 1\'s home 2.06 is +3 % (Kelly 0.028302), book 2\'s 2.02 +1 %', async () => {
    const byId = await edges({ event_ids: [420], devig_reference_operator_id: 3 });
    expect(byId.devig_reference_operator_id).toBe(3);
    expect(byId.value_bets.map((b) => [b.position, b.operator.id, b.fair_probability, b.ev_pct, b.kelly_stake])).toEqual([
      ['home', 1, 0.5, 3, 0.028302],
      ['home', 2, 0.5, 1, 0.009804],
    ]);
    const byKey = await edges({ event_ids: [420], devig_reference_operator_key: 'sharpbook' });
    expect(byKey).toEqual(byId);
    // The reference is read whatever operator_ids asks: the books compared are 1 and 2.
    const compared = await edges({ event_ids: [420], devig_reference_operator_id: 3, operator_ids: [1, 2] });
    expect(compared.value_bets).toEqual(byId.value_bets);
  });

  it('a market the reference book does not price has no fair price, so no value bet; the id wins over the key', async () => {
    // By the consensus, event 430's 2.20 either way is fair at 0.5: two value bets at +10 %, equal,
    // so in the board's order of their selections (away before home).
    const consensus = await edges({ event_ids: [430], min_edge: -100 });
    expect(consensus.value_bets.map((b) => [b.position, b.operator.id, b.ev_pct])).toEqual([
      ['away', 2, 10],
      ['home', 1, 10],
    ]);
    expect((await edges({ event_ids: [430], min_edge: -100, devig_reference_operator_id: 3 })).value_bets_total).toBe(0);
    const answer = await edges({ event_ids: [420, 430], devig_reference_operator_id: 3, min_edge: -100 });
    expect(new Set(answer.value_bets.map((b) => b.event_id))).toEqual(new Set([420]));
    const both = await edges({ event_ids: [420], devig_reference_operator_id: 3, devig_reference_operator_key: 'no-such-book' });
    expect(both.devig_reference_operator_id).toBe(3);
  });

  it('an unknown reference book is 404, by id or key; the bounds are 422', async () => {
    expectError(await h.post(URL, { event_ids: [420], devig_reference_operator_id: 99 }), 404, 'NOT_FOUND');
    expectError(await h.post(URL, { event_ids: [420], devig_reference_operator_key: 'no-such-book' }), 404, 'NOT_FOUND');
    expectError(await h.post(URL, { event_ids: [420], kelly_fraction: 0 }), 422, 'VALIDATION_ERROR');
    expectError(await h.post(URL, { event_ids: [420], kelly_fraction: 1.5 }), 422, 'VALIDATION_ERROR');
    expectError(await h.post(URL, { event_ids: [420], max_hold: 2 }), 422, 'VALIDATION_ERROR');
  });
});
