import { sql } from 'kysely';
import { rmSync } from 'node:fs';
import { openDatabase } from './src/platform/db/database.js';
import { migrateToLatest } from './src/platform/db/migrations.js';
rmSync('/tmp/bench-j', { recursive: true, force: true });
const d = openDatabase('sqlite:/tmp/bench-j/db.sqlite');
await migrateToLatest(d.db);
const N = 1_000_000;
const rows = Array.from({ length: N }, (_, i) => ({ id: i + 1, event_id: (i % 20000) + 1, operator_id: (i % 8) + 1, betting_market_id: (i % 20) + 1, position: 'home', line: -3.5, price_decimal: 1.91, status: 'open', updated_at: 1700000000000 + i }));
const cols = ['id','event_id','operator_id','betting_market_id','position','line','price_decimal','status','updated_at'];
const chunk = 5000;
let t = performance.now();
await d.db.transaction().execute(async (trx) => {
  for (let i = 0; i < N; i += chunk) {
    const json = JSON.stringify(rows.slice(i, i + chunk).map((r) => cols.map((c) => (r as Record<string, unknown>)[c])));
    await sql`insert into odds (${sql.join(cols.map((c) => sql.ref(c)))}) select ${sql.join(cols.map((_, k) => sql.raw(`value ->> ${k}`)))} from json_each(${json}) where true on conflict (id) do update set ${sql.join(cols.slice(1).map((c) => sql.raw(`${c} = excluded.${c}`)))}`.execute(trx);
  }
});
console.log('json_each total', performance.now() - t);
console.log(await d.db.selectFrom('odds').select((eb) => eb.fn.countAll().as('n')).executeTakeFirst(), await d.db.selectFrom('odds').selectAll().where('id', '=', 5).executeTakeFirst());
