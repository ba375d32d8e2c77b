import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { type CliDatabase, cliDatabase, sportsdata } from '../cli/cli-helpers.js';

describe.each(DIALECTS)('sportsdata import --format (%s)', (dialect) => {
  let db: CliDatabase;
  beforeAll(async () => {
    db = await cliDatabase(dialect);
  });
  afterAll(async () => db.close());

  const file = (name: string, content: string) => {
    const path = join(db.env.DATA_DIR ?? '', name);
    writeFileSync(path, content);
    return path;
  };

  it('reads each file with its source reader and answers what it imported', async () => {
    const result = await sportsdata(db.env, 'import', '--format', 'the-odds-api', '--odds-format', 'decimal', file('a.json', '[]'), file('b.json', '[]'), '--json');
    expect(result, result.stderr).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(result.stdout)).toHaveLength(2);
  });

  it('refuses an unknown format', async () => {
    const result = await sportsdata(db.env, 'import', '--format', 'csv', file('c.csv', 'x'));
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/football-data or the-odds-api/);
  });
});
