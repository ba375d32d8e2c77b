import { setTimeout as wait } from 'node:timers/promises';
import type { JobLog } from '../../platform/background.js';
import type { Cli, RegisterCommands } from '../runtime.js';

/**
 * `sportsdata feed the-odds-api`: the upstream feed of a serving node (UPSTREAM_*), in the
 * foreground: the same rounds under the same lease, so it never polls beside a node that does.
 */
export const registerFeed: RegisterCommands = (program, cli) => {
  program
    .command('feed')
    .description('follow an upstream feed (configured by UPSTREAM_URL, UPSTREAM_API_KEY, UPSTREAM_SPORTS, …), importing what changed, until interrupted')
    .command('the-odds-api')
    .description("poll an upstream answering in The Odds API v4's shape for each sport of UPSTREAM_SPORTS, odds and scores, at UPSTREAM_INTERVAL_S")
    .option('--once', 'one round, then exit')
    .action(async (options: { once?: boolean }) => {
      await cli.withContext(async (ctx) => {
        const feed = ctx.upstream;
        if (feed === undefined) throw new Error('the upstream feed is not configured: set UPSTREAM_URL and UPSTREAM_SPORTS');
        const stop = new AbortController();
        const interrupted = () => stop.abort();
        process.once('SIGINT', interrupted).once('SIGTERM', interrupted);
        try {
          for (;;) {
            const delay = await feed.poll(stderrLog(cli));
            const { state, rows_imported, requests_remaining } = feed.details();
            cli.print(`${new Date(ctx.clock.now()).toISOString()} ${state}: ${rows_imported} row(s) imported; quota left ${requests_remaining ?? 'unknown'}; next round in ${Math.round(delay / 1000)} s`);
            if (options.once || stop.signal.aborted) break;
            await wait(delay, undefined, { signal: stop.signal }).catch(() => {});
            if (stop.signal.aborted) break;
          }
        } finally {
          process.off('SIGINT', interrupted).off('SIGTERM', interrupted);
          await feed.release();
        }
      });
    });
};

/** The feed's warnings on stderr: its messages never hold the key (the feed redacts them), and only the fields that name what failed are shown. */
function stderrLog(cli: Cli): JobLog {
  const line = (level: string) => (fields: Record<string, unknown>, message: string) => {
    const { kind, sport, endpoint } = fields;
    const where = [kind, sport, endpoint].filter((part) => typeof part === 'string').join(' ');
    cli.io.stderr.write(`${level}: ${message}${where === '' ? '' : ` (${where})`}\n`);
  };
  return { info: line('info'), warn: line('warn'), error: line('error') };
}
