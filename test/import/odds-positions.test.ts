import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { type ErrorBody, forSuite, harness } from '../helpers/harness.js';
import { importDataset } from '../helpers/data.js';
import { smallDataset, snapshot } from './fixture.js';

/** The small dataset with settled markets: market 1 a 1X2, market 2 a total; market 3 keeps none. */
function settled() {
  const d = smallDataset();
  return {
    ...d,
    betting_markets: d.betting_markets.map((m) => (m.id === 1 ? { ...m, settlement: { rule: '1x2' as const } } : m.id === 2 ? { ...m, settlement: { rule: 'total' as const } } : m)),
  };
}

type Odds = ReturnType<typeof smallDataset>['odds'][number];
const row = (id: number, fields: Partial<Odds>): Odds => ({ id, event_id: 100, operator_id: 1, betting_market_id: 1, position: 'home', price_decimal: 2, ...fields });

describe.each(DIALECTS)('an odds row must name an outcome of its market (%s)', (dialect) => {
  const t = forSuite(() => harness({ dialect }));

  async function refused(odds: Odds[], field: string, allowed: string): Promise<void> {
    const before = await snapshot(t);
    const res = await t.admin.raw<ErrorBody>('POST', '/admin/v1/import', JSON.stringify({ odds }));
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().error.details).toContainEqual({ field, rule: 'outcome' });
    expect(res.json().error.message).toContain(field);
    expect(res.json().error.message).toContain(allowed);
    expect(await snapshot(t)).toEqual(before);
  }

  it('refuses a side the rule lacks: 422 naming odds[i].position with the outcomes, nothing written', async () => {
    await importDataset(t, settled());
    await refused([row(1, { position: 'home', price_decimal: 1.7 }), row(7, { position: 'H' })], 'odds[1].position', 'one of home, draw, away, or a team of the event');
    await refused([row(8, { betting_market_id: 2, position: 'home', line: 220.5 })], 'odds[0].position', 'one of over, under');
    await refused([row(9, { betting_market_id: 2, position: 'Boston Celtics', line: 220.5 })], 'odds[0].position', 'one of over, under');
  });

  it('refuses `over` on a moneyline, its rule given in the same dataset', async () => {
    const markets = [{ id: 4, key: 'ml', name: 'Moneyline', category_id: 1, entity_type: 'team', settlement: { rule: 'moneyline' } }];
    const res = await t.admin.raw<ErrorBody>('POST', '/admin/v1/import', JSON.stringify({ betting_markets: markets, odds: [row(10, { betting_market_id: 4, position: 'over' })] }));
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().error.details).toEqual([{ field: 'odds[0].position', rule: 'outcome' }]);
    expect(res.json().error.message).toContain('one of home, away');
  });

  it('takes a team named alone, by name, key or abbreviation, on a market whose sides are the teams; another event\'s team is refused', async () => {
    // Event 100 and its teams are stored: the names are read from the database.
    const odds = [row(11, { position: 'Boston Celtics' }), row(12, { position: 'new-york-knicks' }), row(13, { position: 'BOS' }), row(14, { position: 'draw' })];
    await importDataset(t, { odds });
    await refused([row(15, { position: 'Sevilla' })], 'odds[0].position', 'home, draw, away');
  });

  it('reads the team names of the dataset itself before the stored ones', async () => {
    const d = settled();
    const teams = [{ ...d.teams[0], id: 1002, key: 'hawks', name: 'Atlanta Hawks', abbreviation: 'ATL' }];
    const events = [{ ...d.events[0], id: 101, home_team_id: 1002 }];
    await importDataset(t, { teams, events, odds: [row(16, { event_id: 101, position: 'Atlanta Hawks' }), row(17, { event_id: 101, position: 'atl' })] });
  });

  it('leaves a market without a settlement rule free', async () => {
    await importDataset(t, { odds: [row(18, { betting_market_id: 3, position: 'H', player_id: 5000, line: 26.5 })] });
  });

  it('takes a subject alone on a yes/no market as its yes, and a subject with a side of the rule', async () => {
    const markets = [{ id: 5, key: 'scorer', name: 'Anytime scorer', category_id: 2, entity_type: 'player', settlement: { rule: 'yes_no', stat: 'points' }, sport_id: 1 }];
    await importDataset(t, {
      betting_markets: markets,
      odds: [row(19, { betting_market_id: 5, position: 'Jayson Tatum' }), row(20, { betting_market_id: 5, position: 'Jayson Tatum no' }), row(21, { betting_market_id: 2, position: 'Boston Celtics over', line: 110.5 })],
    });
    await refused([row(22, { betting_market_id: 5, position: 'Jayson Tatum over' })], 'odds[0].position', 'one of yes, no');
  });
});
