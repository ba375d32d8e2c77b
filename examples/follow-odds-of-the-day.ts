/**
 * Follows the odds of the day's events: prints every price of every event starting today, then
 * asks again every `--every` seconds and prints the prices that changed, until Ctrl-C.
 *
 *   SPORTS_DATA_API_KEY=sdk_… npx tsx examples/follow-odds-of-the-day.ts [--league nba] [--timezone Europe/Madrid] [--every 60] [--once]
 *
 * "Today" is the server's today in the time zone (UTC unless given). Ctrl-C aborts the calls in
 * flight and the wait between rounds through one AbortSignal.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import type { Event, Odds } from '@sports-data/client';
import { clientFromEnvironment, fail } from './environment.js';

const { values: options } = parseArgs({
  options: {
    league: { type: 'string' },
    timezone: { type: 'string', default: 'UTC' },
    every: { type: 'string', default: '60' },
    once: { type: 'boolean', default: false },
  },
});
const api = clientFromEnvironment();
const stop = new AbortController();
process.once('SIGINT', () => stop.abort(new Error('stopped')));

/** The last price printed for each odds id. */
const printed = new Map<number, string>();

function describe(event: Event, odds: Odds): string {
  const selection = odds.line === null ? odds.position : `${odds.position} ${odds.line}`;
  // Asked with odds_format 'american': `price` is the American form, beside price_decimal.
  const american = typeof odds.price === 'number' && odds.price > 0 ? `+${odds.price}` : String(odds.price);
  return [
    `${event.start_time.slice(11, 16)} ${event.home_team.name} v ${event.away_team.name}`,
    odds.operator.name,
    odds.betting_market.name,
    selection,
    `${odds.price_decimal.toFixed(2)} (${american})${odds.status === 'open' ? '' : ` ${odds.status}`}`,
  ].join(' | ');
}

/** One round: every event of the day, every price of each; prints what is new or changed. */
async function round(): Promise<number> {
  const signal = stop.signal;
  let changed = 0;
  const filter = { timezone: options.timezone, ...(options.league ? { league_key: options.league } : {}), page_size: 100 };
  for await (const event of api.events.upcoming.iterate(filter, { signal })) {
    // Matchups only, as asked (event_kinds defaults to them): a competition has no home and away.
    if (!('home_team' in event)) continue;
    for await (const odds of api.odds.upcomingByEvent.iterate({ event_id: event.id, odds_format: 'american', page_size: 100 }, { signal })) {
      const line = describe(event, odds);
      if (printed.get(odds.id) === line) continue;
      printed.set(odds.id, line);
      console.log(line);
      changed += 1;
    }
  }
  return changed;
}

try {
  console.log(`${await round()} prices for the events of today`);
  while (!options.once) {
    await sleep(Number(options.every) * 1000, undefined, { signal: stop.signal });
    console.log(`${new Date().toISOString()}: ${await round()} prices changed`);
  }
} catch (error) {
  if (!stop.signal.aborted) fail(error);
}
