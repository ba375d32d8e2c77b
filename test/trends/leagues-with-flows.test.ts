import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { eventById, FLOWS, LEAGUES } from '../fixtures/events-flows.js';
import { forSuite, reader } from '../helpers/harness.js';
import { eventsFlowsDataset } from '../fixtures/events-flows.js';
import { expectError } from '../helpers/responses.js';

const URL = '/v1/trends/leagues-with-available-flows';

/** The fixture's leagues with flows, and their counts by type. */
function expectedLeagues(sportId?: number) {
  return LEAGUES.filter((l) => sportId === undefined || l.sport_id === sportId).flatMap((league) => {
    const flows = FLOWS.filter((f) => eventById(f.event_id).league_id === league.id);
    if (flows.length === 0) return [];
    const of = (type: string) => flows.filter((f) => f.flow_type === type).length;
    return [
      {
        id: league.id,
        key: league.key,
        qualified_key: `${league.country_key}.${league.key}`,
        name: league.name,
        sport_id: league.sport_id,
        country: { key: league.country_key, name: league.country_name },
        is_popular: false,
        flow_counts: { fact: of('fact'), fun: of('fun'), plain: of('plain'), total: flows.length },
      },
    ];
  });
}

/** The leagues that have flows, with their counts by type, paginated like every list. */
describe.each(DIALECTS)('GET /v1/trends/leagues-with-available-flows (%s)', (dialect) => {
  const h = forSuite(() => reader({ dialect, dataset: eventsFlowsDataset }));

  it('lists every league with flows, by id, with its flows counted by type', async () => {
    const expected = expectedLeagues();
    expect(expected.length).toBeGreaterThan(2);
    expect((await h.page(`${URL}?page_size=100`)).results).toEqual(expected);
    const flowsListed = await h.page('/v1/trends/mixed-flows', { page_size: 1 });
    expect(expected.reduce((sum, l) => sum + l.flow_counts.total, 0)).toBe(flowsListed.total_count);
  });

  it('by sport_id or sport_key; an unknown sport is 404', async () => {
    expect((await h.page(`${URL}?sport_id=2`)).results).toEqual(expectedLeagues(2));
    expect((await h.page(`${URL}?sport_key=Basketball`)).results).toEqual(expectedLeagues(1));
    expectError(await h.get(`${URL}?sport_key=curling`), 404, 'NOT_FOUND');
    expectError(await h.get(`${URL}?sport_id=99`), 404, 'NOT_FOUND');
  });

  it('pages like every list; bad paging is 422, an unknown parameter too', async () => {
    const all = expectedLeagues();
    const second = await h.page(`${URL}?page=2&page_size=2`);
    expect(second).toMatchObject({ total_count: all.length, total_pages: Math.ceil(all.length / 2) });
    expect(second.results).toEqual(all.slice(2, 4));
    expectError(await h.get(`${URL}?page_size=101`), 422, 'VALIDATION_ERROR', 'page_size');
    expectError(await h.get(`${URL}?league_id=10`), 422, 'VALIDATION_ERROR', 'league_id');
  });
});
