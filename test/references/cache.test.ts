import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { importDataset } from '../helpers/data.js';
import { LEAGUE } from '../fixtures/references.js';
import { forSuite, reader } from '../helpers/harness.js';
import { referenceDataset } from '../fixtures/references.js';

describe.each(DIALECTS)('reference lists follow the data version (%s)', (dialect) => {
  const data = referenceDataset();
  const h = forSuite(() => reader({ dialect, dataset: { ...data } }));

  it('after an import that renames a team and adds one, the next request shows both', async () => {
    const url = '/v1/references/teams?league_key=nba&page=1&page_size=5';
    const before = await h.page<{ name: string }>(url);
    expect(before.results[0]).toMatchObject({ id: 1001, name: 'Atlanta Hawks' });
    expect(before.total_count).toBe(47);
    // The same request again is served from the cache: byte-identical.
    expect((await h.get(url)).body).toBe(JSON.stringify(before));

    const hawks = data.teams.find((t) => t.id === 1001);
    await importDataset(h.t, {
      teams: [
        { ...hawks, name: 'Atlanta Firebirds' },
        { id: 1999, key: 'vancouver-grizzlies', name: 'Vancouver Grizzlies', league_id: LEAGUE.nba },
      ],
    });

    const after = await h.page<{ name: string }>(url);
    expect(after.results[0]).toMatchObject({ id: 1001, name: 'Atlanta Firebirds' });
    expect(after.total_count).toBe(48);
    expect(after.total_pages).toBe(10);
    // Derived lists and key indexes follow too: the new team is findable by its keys.
    expect(await h.allIds('/v1/references/teams?search=firebirds')).toEqual([1001]);
    // The old name is gone; the key (unchanged) still matches.
    expect(await h.allIds('/v1/references/teams?search=atlanta%20hawks')).toEqual([]);
    expect(await h.allIds('/v1/references/teams?search=atlanta-hawks')).toEqual([1001]);
    expect((await h.page('/v1/references/players?team_key=nba.vancouver-grizzlies')).total_count).toBe(0);
  });
});
