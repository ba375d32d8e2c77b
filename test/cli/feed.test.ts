import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { cliSuite, sportsdata } from './cli-helpers.js';

describe.each(DIALECTS)('sportsdata feed (%s)', (dialect) => {
  const { db, run } = cliSuite(dialect);

  it('says the feed is not configured without UPSTREAM_URL', async () => {
    const result = await run('feed', 'the-odds-api', '--once');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('the upstream feed is not configured: set UPSTREAM_URL and UPSTREAM_SPORTS');
  });

  it('refuses an upstream without sports, naming the variable and not the key', async () => {
    const result = await sportsdata({ ...db.env, UPSTREAM_URL: 'http://127.0.0.1:9', UPSTREAM_API_KEY: 'a-secret-upstream-key-0123456789' }, 'feed', 'the-odds-api', '--once');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('UPSTREAM_SPORTS');
    expect(result.stderr + result.stdout).not.toContain('a-secret-upstream-key');
  });
});
