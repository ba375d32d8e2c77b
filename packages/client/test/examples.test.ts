import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OnboardedClient } from '../../../test/helpers/clients.js';
import { smallDataset } from '../../../test/import/fixture.js';
import { ROOT, runTypeScript } from './helpers/run.js';
import { runningClock, type Server, startServer } from './helpers/server.js';

/**
 * The scripts of examples/ run as the README says, against the real server: the
 * small dataset with the NBA grown to 53 teams, on 5 January 2030 by the server's clock.
 */
describe('examples/', () => {
  let server: Server;
  let client: OnboardedClient;
  let env: Record<string, string>;
  beforeAll(async () => {
    server = await startServer({ clock: runningClock(Date.parse('2030-01-05T12:00:00Z')) });
    const dataset = smallDataset();
    const more = Array.from({ length: 51 }, (_, i) => ({ id: 3000 + i, key: `expansion-${i + 1}`, name: `Expansion ${i + 1}`, league_id: 10 }));
    await server.t.import({ ...dataset, teams: [...dataset.teams, ...more] });
    client = await server.t.client();
    env = { SPORTS_DATA_URL: server.baseUrl, SPORTS_DATA_API_KEY: client.apiKey };
  });
  afterAll(async () => server.close());

  it('teams-of-a-league pages through all 53 teams of the NBA and prints them', async () => {
    const ran = await runTypeScript(join(ROOT, 'examples/teams-of-a-league.ts'), ['nba'], { env });
    expect(ran.stderr).toBe('');
    expect(ran.code).toBe(0);
    const lines = ran.stdout.trim().split('\n');
    expect(lines).toHaveLength(54);
    expect(lines[0]).toBe('1000\tBOS\tBoston Celtics');
    expect(lines.at(-1)).toBe('53 teams in nba');
  });

  it('teams-of-a-league with client credentials, and a clear line for an unknown league', async () => {
    const oauth = { SPORTS_DATA_URL: server.baseUrl, SPORTS_DATA_CLIENT_ID: client.clientId, SPORTS_DATA_CLIENT_SECRET: client.clientSecret };
    const ran = await runTypeScript(join(ROOT, 'examples/teams-of-a-league.ts'), ['la-liga'], { env: oauth });
    expect(ran.stdout).toBe('2000\t-\tSevilla\n2001\t-\tValencia\n2 teams in la-liga\n');
    const unknown = await runTypeScript(join(ROOT, 'examples/teams-of-a-league.ts'), ['nowhere'], { env });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^NOT_FOUND: .*nowhere.* \[request [\w-]+\]\n$/);
  });

  it('follow-odds-of-the-day --once prints every price of the events of the day', async () => {
    const ran = await runTypeScript(join(ROOT, 'examples/follow-odds-of-the-day.ts'), ['--once'], { env });
    expect(ran.stderr).toBe('');
    expect(ran.code).toBe(0);
    const lines = ran.stdout.trim().split('\n');
    // Event 100 (00:30 UTC) has four prices; event 200 starts at 19:00 UTC, with two.
    expect(lines).toContain('00:30 Boston Celtics v New York Knicks | Northstar Bet | Moneyline | home | 1.80 (-125)');
    expect(lines).toContain('00:30 Boston Celtics v New York Knicks | Kingsbet | Total | over 221.5 | 1.91 (-110) suspended');
    expect(lines.at(-1)).toBe('6 prices for the events of today');
  });
});
