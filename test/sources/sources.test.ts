import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createImportService } from '../../src/modules/import/index.js';
import { createSourcesService, type SourcesService } from '../../src/modules/sources/index.js';
import { DIALECTS } from '../helpers/app.js';
import { type Harness, harness } from '../helpers/harness.js';
import { batch, row } from './batches.js';

describe.each(DIALECTS)('source imports: identity, matching, the review queue (%s)', (dialect) => {
  let t: Harness;
  let sources: SourcesService;
  beforeEach(async () => {
    t = await harness({ dialect });
    sources = createSourcesService({ database: t.ctx.database, importer: createImportService(t.ctx) });
  });
  afterEach(async () => t.close());

  const db = () => t.ctx.database.db;
  const count = async (table: 'events' | 'teams' | 'odds_history' | 'operators' | 'odds') => Number((await db().selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const START = '2025-08-16T14:00:00.000Z';

  it('makes the records of an empty league, keeps each source key, and writes both price points of a selection as history', async () => {
    const answer = await sources.importBatch(batch('football-data', [row(2, 'Arsenal', 'Chelsea', START, { home: 2, draw: 3.4, away: 3.9 }, { home: 1.9, draw: 3.5, away: 4.2 })]));
    expect(answer).toEqual({ imported: { events: 1, odds: 6, results: 0 }, queued: 0, skipped: [] });
    expect(await count('events')).toBe(1);
    expect(await count('teams')).toBe(2);
    expect(await count('odds')).toBe(3);
    expect(await count('odds_history')).toBe(6);
    const event = await db().selectFrom('events').select('id').executeTakeFirstOrThrow();
    const ids = await t.admin.ok<{ data: Array<{ source: string; external_id: string; created: boolean }> }>(`/admin/v1/mapping/external-ids?entity_type=event&entity_id=${event.id}`);
    expect(ids.data).toEqual([{ source: 'football-data', entity_type: 'event', external_id: 'E0/2025-08-16/Arsenal/Chelsea', entity_id: Number(event.id), created: true }]);
    const byKey = await t.admin.ok<{ data: unknown[] }>(`/admin/v1/mapping/external-ids?source=football-data&external_id=Arsenal`);
    expect(byKey.data).toHaveLength(1);
  });

  it('the same file twice writes no history row and no record; a changed price writes exactly one', async () => {
    const file = batch('football-data', [row(2, 'Arsenal', 'Chelsea', START, { home: 2, draw: 3.4, away: 3.9 }, { home: 1.9, draw: 3.5, away: 4.2 })]);
    await sources.importBatch(file);
    await sources.importBatch(file);
    expect(await count('odds_history')).toBe(6);
    expect(await count('events')).toBe(1);
    const moved = row(2, 'Arsenal', 'Chelsea', START, { home: 2, draw: 3.4, away: 3.9 });
    moved.prices = [{ ...moved.prices[0]!, price: 1.85, at: new Date(Date.parse(START) - 60_000).toISOString() }];
    await sources.importBatch(batch('football-data', [moved]));
    expect(await count('odds_history')).toBe(7);
  });

  it('a second source lands on the same event, team and operator by rule; an unknown name waits, then an alias imports it onto the same event', async () => {
    await sources.importBatch(batch('football-data', [row(2, 'Arsenal', 'Brighton & Hove Albion', START, { home: 1.5, draw: 4, away: 6 }), row(3, 'Man United', 'Chelsea', START, { home: 2.5, draw: 3.3, away: 2.8 })]));
    const odds = (r: ReturnType<typeof row>) => ({ ...r, prices: r.prices.map((p) => ({ ...p, book: { sourceKey: 'pinnacle', key: 'pinnacle', name: 'Pinnacle' } })) });
    const later = '2025-08-16T14:00:00Z';
    const second = await sources.importBatch(
      batch('the-odds-api', [
        { ...odds(row(1, 'Arsenal FC', 'Brighton and Hove Albion', later, { home: 1.55, draw: 4, away: 6 })), eventKey: 'abc', league: { sourceKey: 'soccer_epl', key: 'premier-league', name: 'EPL', sport: { key: 'soccer', name: 'Soccer' } } },
        { ...odds(row(2, 'Manchester United', 'Chelsea', later, { home: 2.4, draw: 3.3, away: 2.8 })), eventKey: 'def', league: { sourceKey: 'soccer_epl', key: 'premier-league', name: 'EPL', sport: { key: 'soccer', name: 'Soccer' } } },
      ]),
    );
    expect(second.queued).toBe(1);
    expect(second.imported.events).toBe(1);
    expect(await count('events')).toBe(2);
    expect(await count('teams')).toBe(4);
    expect(await count('operators')).toBe(1);

    const unmatched = await t.admin.ok<{ data: Array<{ name: string; rows: number; candidates: Array<{ entity_id: number; name: string; score: number }> }> }>('/admin/v1/mapping/unmatched');
    expect(unmatched.data.map((u) => [u.name, u.rows])).toEqual([['Manchester United', 1]]);
    const best = unmatched.data[0]!.candidates[0]!;
    expect(best.name).toBe('Man United');

    const res = await t.admin.post('/admin/v1/mapping/aliases', { source: 'the-odds-api', name: 'Manchester United', entity_type: 'team', entity_id: best.entity_id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ entity_id: best.entity_id, imported: { events: 1 }, queued: 0 });
    expect(await count('events')).toBe(2);
    expect(await count('teams')).toBe(4);
    expect((await t.admin.ok<{ data: unknown[] }>('/admin/v1/mapping/unmatched')).data).toEqual([]);
    expect((await t.admin.ok<{ data: unknown[] }>('/admin/v1/mapping/aliases')).data).toHaveLength(1);
  });

  it("a native dataset's aliases import the rows waiting on their names in the same transaction; a dataset refused leaves them waiting", async () => {
    await sources.importBatch(batch('football-data', [row(2, 'Man United', 'Chelsea', START, { home: 2.5, draw: 3.3, away: 2.8 })]));
    const waiting = await sources.importBatch(batch('the-odds-api', [{ ...row(1, 'Manchester United', 'Chelsea', '2025-08-16T15:00:00.000Z', { home: 2.4, draw: 3.4, away: 2.9 }), eventKey: 'mu-che' }]));
    expect(waiting.queued).toBe(1);
    const united = await db().selectFrom('teams').select('id').where('name', '=', 'Man United').executeTakeFirstOrThrow();
    const alias = { source: 'the-odds-api', name: 'Manchester United', entity_type: 'team', entity_id: Number(united.id) };
    const historyBefore = await count('odds_history');

    // One alias naming no record: 422, and neither the good alias nor the rows it would release land.
    const refused = await t.admin.post('/admin/v1/import', { aliases: [alias, { ...alias, name: 'Nobody', entity_id: 999_999 }] });
    expect(refused.statusCode, refused.body).toBe(422);
    expect((await t.admin.ok<{ data: unknown[] }>('/admin/v1/mapping/aliases')).data).toEqual([]);
    expect((await t.admin.ok<{ data: Array<{ name: string }> }>('/admin/v1/mapping/unmatched')).data.map((u) => u.name)).toEqual(['Manchester United']);

    const res = await t.admin.post('/admin/v1/import', { aliases: [alias] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ upserted: { aliases: 1 }, released: { imported: { events: 1, odds: 3, results: 0 }, queued: 0 } });
    expect((await t.admin.ok<{ data: unknown[] }>('/admin/v1/mapping/unmatched')).data).toEqual([]);
    // The waiting row (its kick-off an hour off, its prices an hour later) landed on the stored event: no event or team made, its three prices in the history.
    expect(await count('events')).toBe(1);
    expect(await count('teams')).toBe(2);
    expect(await count('odds_history')).toBe(historyBefore + 3);
    const event = await db().selectFrom('events').select('id').executeTakeFirstOrThrow();
    const keys = await t.admin.ok<{ data: Array<{ source: string }> }>(`/admin/v1/mapping/external-ids?entity_type=event&entity_id=${event.id}`);
    expect(keys.data.map((k) => k.source).sort()).toEqual(['football-data', 'the-odds-api']);

    // Aliases with nothing waiting say nothing of the queue.
    const again = await t.admin.post('/admin/v1/import', { aliases: [alias] });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).not.toHaveProperty('released');
  });

  it('create: true makes the waiting name a record of its league and imports its rows', async () => {
    await sources.importBatch(batch('football-data', [row(2, 'Arsenal', 'Chelsea', START, { home: 2, draw: 3.4, away: 3.9 })]));
    const answer = await sources.importBatch(batch('the-odds-api', [{ ...row(1, 'Arsenal', 'Sunderland', '2025-08-23T14:00:00Z', { home: 1.3, draw: 5, away: 9 }), eventKey: 'x1' }]));
    expect(answer.queued).toBe(1);
    const res = await t.admin.post('/admin/v1/mapping/aliases', { source: 'the-odds-api', name: 'Sunderland', entity_type: 'team', create: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ imported: { events: 1 }, queued: 0 });
    expect(await count('teams')).toBe(3);
    expect(await count('events')).toBe(2);
  });

  it('refuses a batch with problems whole (422 naming row and column), or imports the rest with skipInvalid', async () => {
    const file = batch('football-data', [row(2, 'Arsenal', 'Chelsea', START, { home: 2, draw: 3.4, away: 3.9 })], [{ row: 3, column: 'B365H', message: 'is not a price' }]);
    await expect(sources.importBatch(file)).rejects.toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'row 3, B365H', rule: 'invalid' }] });
    expect(await count('events')).toBe(0);
    const answer = await sources.importBatch(file, { skipInvalid: true });
    expect(answer.skipped).toEqual(file.problems);
    expect(await count('events')).toBe(1);
  });

  it('a native import naming a record a source made is 422, nothing written', async () => {
    await sources.importBatch(batch('football-data', [row(2, 'Arsenal', 'Chelsea', START, { home: 2, draw: 3.4, away: 3.9 })]));
    const team = await db().selectFrom('teams').select(['id', 'league_id']).orderBy('id').executeTakeFirstOrThrow();
    const res = await t.admin.post('/admin/v1/import', { teams: [{ id: Number(team.id), key: 'x', name: 'X', league_id: Number(team.league_id) }] });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json<{ error: { details: unknown[] } }>().error.details).toEqual([{ field: 'teams[0].id', rule: 'source_owned' }]);
  });

  it('the HTTP import routes: 413 above 64 MiB, a query refused where unknown, a CSV body read', async () => {
    const big = await t.admin.request({ method: 'POST', url: '/admin/v1/import/football-data', headers: { 'content-type': 'text/csv', 'content-length': String(65 * 1024 * 1024) }, payload: 'x' });
    expect(big.statusCode).toBe(413);
    const unknown = await t.admin.raw('POST', '/admin/v1/import/football-data?nope=1', 'Div\n', 'text/csv');
    expect(unknown.statusCode).toBe(422);
    const empty = await t.admin.raw('POST', '/admin/v1/import/football-data?skip_invalid=true', '', 'text/csv');
    expect(empty.statusCode, empty.body).toBe(200);
    const odds = await t.admin.raw('POST', '/admin/v1/import/the-odds-api?odds_format=decimal', '[]', 'application/json');
    expect(odds.statusCode, odds.body).toBe(200);
  });
});
