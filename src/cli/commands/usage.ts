import { InvalidArgumentError } from 'commander';
import { USAGE_GROUP_NAMES } from '../../modules/policy/index.js';
import type { Usage } from '../../modules/usage/index.js';
import { DEFAULT_RANGE_DAYS, MAX_RANGE_DAYS, utcDays } from '../../shared/date-range.js';
import { type RegisterCommands, table } from '../runtime.js';

function date(value: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value))) throw new InvalidArgumentError('must be a date, YYYY-MM-DD.');
  return value;
}

/**
 * `sportsdata usage CLIENT_ID`: what GET /admin/v1/clients/{id}/usage answers. The current
 * minute and day are counted where the limits are: in Redis (read from here), or without
 * REDIS_URL in each serving process's memory, which this command cannot see (`current` is then null).
 * The days are what the serving processes have written so far: each writes every USAGE_FLUSH_MS.
 */
export const registerUsage: RegisterCommands = (program, cli) => {
  program
    .command('usage')
    .description("a client's limits, its current minute and day, and its requests per UTC day by route group")
    .argument('<client_id>', 'the client (UUID)')
    .option('--start-date <YYYY-MM-DD>', `first day (default: ${DEFAULT_RANGE_DAYS - 1} days before the end date)`, date)
    .option('--end-date <YYYY-MM-DD>', `last day (default: today, UTC); at most ${MAX_RANGE_DAYS} days in all`, date)
    .option('--json', 'print machine-readable JSON (the admin API\'s shape)')
    .action(async (clientId: string, options: { startDate?: string; endDate?: string; json?: boolean }) => {
      const report = await cli.withContext(async (ctx) => {
        const account = await ctx.clients.get(clientId);
        const range = utcDays({ start_date: options.startDate, end_date: options.endDate }, ctx.clock.now());
        if (!ctx.counters.shared) return { ...(await ctx.usage.report(account, range)), current: null };
        const warn = (_fields: Record<string, unknown>, message: string) => void cli.io.stderr.write(`warning: ${message}\n`);
        await ctx.counters.start({ info: () => {}, warn, error: warn });
        try {
          return await ctx.usage.report(account, range);
        } finally {
          await ctx.counters.stop();
        }
      });
      if (options.json) return cli.printJson(report);
      print(report);
    });

  function print(report: Omit<Usage, 'current'> & { current: Usage['current'] | null }): void {
    const cap = (n: number | null) => (n === null ? 'no cap' : String(n));
    cli.print(`tier ${report.tier}: ${cap(report.limits.per_minute)} requests per minute, ${cap(report.limits.per_day)} per day`);
    if (report.current === null) {
      cli.print('current minute and day: counted in each serving process without REDIS_URL; see GET /admin/v1/clients/{id}/usage');
    } else {
      for (const [name, w] of Object.entries(report.current)) {
        cli.print(`this ${name}: ${w.used ?? 'not counted'} used, ${w.remaining ?? 'no cap'} remaining, resets at ${w.resets_at}`);
      }
    }
    cli.print(
      `requests per day: as the serving nodes have written them, each every USAGE_FLUSH_MS (${cli.config().usageFlushMs} ms); ` +
        'their calls since are not in them yet',
    );
    // A column per usage group, named from the one list of groups, so that a new group is never a value without a heading.
    const rows = report.days.map((d) => [d.date, String(d.requests), String(d.charged), ...USAGE_GROUP_NAMES.map((g) => String(d.by_group[g]))]);
    cli.print(table(['DATE', 'REQUESTS', 'CHARGED', ...USAGE_GROUP_NAMES.map((g) => g.toUpperCase())], rows));
  }
};
