import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { SPORT } from '../fixtures/references.js';
import { expectError } from '../helpers/responses.js';
import { idsOf, type ReferencesHarness, setupReferences } from './setup.js';

/**
 * Countries, betting-market categories and positions, event periods and the
 * odds formats, paginated and searchable like the other reference lists.
 */
describe.each(DIALECTS)('the rest of the reference lists (%s)', (dialect) => {
  let h: ReferencesHarness;
  beforeAll(async () => {
    h = await setupReferences(dialect);
  });
  afterAll(async () => h.t.close());

  /** The categories whose markets are offered for a sport: a market of the sport, or of every sport. */
  const categoriesOf = (sport: number) => {
    const markets = h.data.betting_markets.filter((m) => m.sport_id === undefined || m.sport_id === sport);
    const keys = new Set(markets.map((m) => m.category ?? h.data.betting_market_categories.find((c) => c.id === m.category_id)?.key));
    return idsOf(h.data.betting_market_categories.filter((c) => keys.has(c.key)));
  };

  it('countries: {id, key, name}, searchable', async () => {
    expect((await h.page('/v1/references/countries?page_size=2')).results).toEqual(h.data.countries.slice(0, 2));
    expect(await h.allIds('/v1/references/countries')).toEqual(idsOf(h.data.countries));
    expect(await h.allIds('/v1/references/countries?search=AN')).toEqual(idsOf(h.data.countries.filter((c) => c.name.toLowerCase().includes('an'))));
    expect(await h.allIds('/v1/references/countries?search=united-')).toEqual([1]);
  });

  it('betting-market positions: {id, key, name}, searchable', async () => {
    expect((await h.page('/v1/references/betting-market-positions')).results).toEqual(h.data.betting_market_positions);
    expect(await h.allIds('/v1/references/betting-market-positions?search=o')).toEqual(idsOf(h.data.betting_market_positions.filter((p) => p.key.includes('o'))));
  });

  describe('betting-market categories', () => {
    it('are records {id, key, name}; every category, also one without markets, when no sport is asked', async () => {
      expect((await h.page('/v1/references/betting-market-categories')).results).toEqual(h.data.betting_market_categories);
    });

    it('by sport: the categories of the markets offered for it, by sport_id or sport_key', async () => {
      for (const sport of [SPORT.basketball, SPORT.soccer, SPORT.iceHockey]) {
        const expected = categoriesOf(sport);
        expect(expected.length).toBeLessThan(h.data.betting_market_categories.length);
        expect(await h.allIds(`/v1/references/betting-market-categories?sport_id=${sport}`)).toEqual(expected);
      }
      // Ice hockey has no markets of its own: only the category of the markets of every sport.
      expect(await h.allIds('/v1/references/betting-market-categories?sport_key=ice-hockey')).toEqual([1]);
      expect(await h.allIds('/v1/references/betting-market-categories?sport_key=soccer&search=player')).toEqual([2]);
    });

    it('a market shows its category key and id, by whichever the import named it', async () => {
      const markets = await h.page<{ category: string; category_id: number | null }>('/v1/references/betting-markets?page_size=100');
      const byId = new Map(markets.results.map((m) => [m.id, m]));
      expect(byId.get(101)).toMatchObject({ category: 'player-props', category_id: 2 });
      expect(byId.get(110)).toMatchObject({ category: 'team-props', category_id: 4 });
      expect(byId.get(201)).toMatchObject({ category: 'game-props', category_id: 3 });
      expect(byId.get(901)).toMatchObject({ category: 'game-lines', category_id: 1 });
    });
  });

  describe('event periods', () => {
    it('are {id, key, name, sport_id}, by sport_id or sport_key, searchable', async () => {
      expect((await h.page('/v1/references/event-periods?page_size=1')).results).toEqual([{ id: 1, key: 'full-game', name: 'Full Game', sport_id: SPORT.basketball }]);
      const soccer = idsOf(h.data.event_periods.filter((p) => p.sport_id === SPORT.soccer));
      expect(await h.allIds(`/v1/references/event-periods?sport_id=${SPORT.soccer}`)).toEqual(soccer);
      expect(await h.allIds('/v1/references/event-periods?sport_key=Soccer')).toEqual(soccer);
      // The id wins over the key, which is then not even resolved.
      expect(await h.allIds(`/v1/references/event-periods?sport_id=${SPORT.soccer}&sport_key=curling`)).toEqual(soccer);
      expect(await h.allIds('/v1/references/event-periods?search=1st%20half')).toEqual(idsOf(h.data.event_periods.filter((p) => p.key === '1st-half')));
      expect(await h.allIds(`/v1/references/event-periods?sport_id=${SPORT.baseball}`)).toEqual([]);
    });

    it('an unknown sport is 404, on both lists by sport', async () => {
      for (const list of ['event-periods', 'betting-market-categories']) {
        expectError(await h.get(`/v1/references/${list}?sport_key=curling`), 404, 'NOT_FOUND');
        expectError(await h.get(`/v1/references/${list}?sport_id=999`), 404, 'NOT_FOUND');
      }
    });
  });

  it('odds formats: the six formats in order (Odditt\'s multiplier and percent last), with the JSON type of their price', async () => {
    const page = await h.page<{ key: string; value_type: string }>('/v1/references/odds-format');
    expect(page.results.map((f) => [f.id, f.key, f.value_type])).toEqual([
      [1, 'decimal', 'number'],
      [2, 'american', 'integer'],
      [3, 'fractional', 'string'],
      [4, 'implied_probability', 'number'],
      [5, 'multiplier', 'number'],
      [6, 'percent', 'number'],
    ]);
    expect(await h.allIds('/v1/references/odds-format?search=frac')).toEqual([3]);
    expect((await h.page('/v1/references/odds-format?page=2&page_size=3')).results.map((f) => f.id)).toEqual([4, 5, 6]);
  });
});
