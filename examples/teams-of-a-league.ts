/**
 * Pages through every team of a league and prints them, one per line.
 *
 *   SPORTS_DATA_API_KEY=sdk_… npx tsx examples/teams-of-a-league.ts nba
 *
 * `iterate` asks for one page after the other until `page >= total_pages`; the client logs in,
 * refreshes and waits out rate limits by itself.
 */
import { clientFromEnvironment, fail } from './environment.js';

const leagueKey = process.argv[2] ?? 'nba';
const api = clientFromEnvironment();

try {
  let count = 0;
  for await (const team of api.references.teams.iterate({ league_key: leagueKey, page_size: 100 })) {
    count += 1;
    console.log([team.id, team.abbreviation ?? '-', team.name].join('\t'));
  }
  console.log(`${count} teams in ${leagueKey}`);
} catch (error) {
  fail(error);
}
