import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { type CliDatabase, cliDatabase, sportsdata } from '../cli/cli-helpers.js';
import { COUNTS, smallDataset, snapshot } from './fixture.js';

describe.each(DIALECTS)('sportsdata import FILE (%s)', (dialect) => {
  let db: CliDatabase;
  let dir: string;
  beforeAll(async () => {
    db = await cliDatabase(dialect);
    dir = db.env.DATA_DIR ?? '';
  });
  afterAll(async () => db.close());

  const file = (name: string, content: string) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };
  const state = () => snapshot(db);

  it('imports a dataset file through the import service and prints the counts', async () => {
    const result = await sportsdata(db.env, 'import', file('small.json', JSON.stringify(smallDataset())), '--json');
    expect(result, result.stderr).toMatchObject({ code: 0, stderr: '' });
    // The postponed event's two odds rows are graded as such: ungraded, with the reason.
    expect(JSON.parse(result.stdout)).toEqual({ upserted: COUNTS, graded: { events: 1, grades: 2 } });
    expect((await state()).counts).toEqual({ ...COUNTS, flow_legs: 2, flow_tags: 2 });

    const text = await sportsdata(db.env, 'import', file('sports.json', JSON.stringify({ sports: smallDataset().sports })));
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^ARRAY\s+UPSERTED\nsports\s+2\n/);
  });

  it('refuses a bad dataset with every problem on stderr, and writes nothing', async () => {
    const before = await state();
    const data = smallDataset();
    const bad = { ...data, sports: [{ id: 1, key: 'basketball', name: 'Renamed' }], teams: data.teams.map((x, i) => (i === 1 ? { ...x, league_id: 999 } : x)) };
    const result = await sportsdata(db.env, 'import', file('bad.json', JSON.stringify(bad)));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('teams[1].league_id: reference');
    expect(result.stderr).toMatch(/error: teams\[1\]\.league_id names no league/);
    expect(await state()).toEqual(before);
  });

  it('reports an unreadable or malformed file in one line', async () => {
    const malformed = await sportsdata(db.env, 'import', file('broken.json', '{"sports": ['));
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toMatch(/^error: .*broken\.json is not valid JSON/);
    const missing = await sportsdata(db.env, 'import', join(dir, 'nothing-here.json'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error: cannot read .*nothing-here\.json \(ENOENT\)/);
  });
});
