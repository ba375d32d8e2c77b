import type { KyselyPlugin, QueryResult, UnknownRow } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createChangeFeed } from '../../src/platform/cache/change-feed.js';
import { DIALECTS } from '../helpers/app.js';
import { forSuite, harness } from '../helpers/harness.js';

/**
 * A Kysely plugin over the real database that can hold back the result of the next query after
 * it has run: a poll whose answer reflects the database before a change, but arrives after it —
 * what a slow PostgreSQL round trip does under load.
 */
function resultGate() {
  let queries = 0;
  let holdNext = false;
  let heldSignal: () => void = () => {};
  let releaseHeld: () => void = () => {};
  const plugin: KyselyPlugin = {
    transformQuery: (args) => args.node,
    async transformResult(args): Promise<QueryResult<UnknownRow>> {
      queries += 1;
      if (holdNext) {
        holdNext = false;
        const released = new Promise<void>((resolve) => (releaseHeld = resolve));
        heldSignal();
        await released;
      }
      return args.result;
    },
  };
  return {
    plugin,
    queries: () => queries,
    /** Holds the next result back; resolves once that query has run against the database. */
    holdNext(): Promise<void> {
      holdNext = true;
      return new Promise<void>((resolve) => (heldSignal = resolve));
    },
    release: () => releaseHeld(),
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(DIALECTS)('the change feed only moves forward (%s)', (dialect) => {
  const t = forSuite(() => harness({ dialect }));

  it('a poll that read the counters before a change and answers after it does not move the version back', async () => {
    const gate = resultGate();
    const feed = createChangeFeed(t.database.db.withPlugin(gate.plugin), 3_600_000);
    await feed.poll();
    const before = feed.version('data');
    const seen: number[] = [];
    feed.onChange('data', () => seen.push(feed.version('data')));

    const ran = gate.holdNext();
    const stalePoll = feed.poll();
    await ran;
    // An import commits on this node after the slow poll read the counters.
    await t.database.db.transaction().execute((trx) => feed.bump(trx, 'data'));
    const afterCommit = feed.changed('data');
    // Let the newer poll finish first if it runs beside the held one; then the stale answer arrives.
    await Promise.race([afterCommit, pause(200)]);
    gate.release();
    await Promise.all([stalePoll, afterCommit]);

    expect(feed.version('data')).toBe(before + 1);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((version, i) => version === before + 1 && (i === 0 || version >= (seen[i - 1] ?? 0)))).toBe(true);
  });

  it('accepts only increasing versions: a counter read lower than one already seen changes nothing', async () => {
    const feed = createChangeFeed(t.database.db, 3_600_000);
    await t.database.db.transaction().execute((trx) => feed.bump(trx, 'data'));
    await feed.poll();
    const seenVersion = feed.version('data');
    let notified = 0;
    feed.onChange('data', () => (notified += 1));
    // What a lagging read shows (a replica behind, a snapshot from before the last import).
    await t.database.db.updateTable('change_versions').set({ version: seenVersion - 1 }).where('name', '=', 'data').execute();
    await feed.poll();
    expect(feed.version('data')).toBe(seenVersion);
    expect(notified).toBe(0);
    await t.database.db.updateTable('change_versions').set({ version: seenVersion }).where('name', '=', 'data').execute();
  });

  it('keeps one poll in flight: polls asked for meanwhile become one follow-up poll, which sees what committed before it was asked for', async () => {
    const gate = resultGate();
    const feed = createChangeFeed(t.database.db.withPlugin(gate.plugin), 3_600_000);
    await feed.poll();
    const before = feed.version('clients');
    const queriesBefore = gate.queries();

    const ran = gate.holdNext();
    const first = feed.poll();
    await ran;
    await t.database.db.transaction().execute((trx) => feed.bump(trx, 'clients'));
    const asked = [feed.poll(), feed.poll(), feed.changed('clients'), feed.poll()];
    await pause(100);
    expect(gate.queries() - queriesBefore).toBe(1);
    gate.release();
    await Promise.all([first, ...asked]);

    expect(gate.queries() - queriesBefore).toBe(2);
    expect(feed.version('clients')).toBe(before + 1);
  });
});
