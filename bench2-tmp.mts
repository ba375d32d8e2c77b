import { rmSync } from 'node:fs';
import { openDatabase } from './src/platform/db/database.js';
import { migrateToLatest } from './src/platform/db/migrations.js';
rmSync('/tmp/bench-k', { recursive: true, force: true });
const d = openDatabase('sqlite:/tmp/bench-k/db.sqlite');
await migrateToLatest(d.db);
const N = 1_000_000;
const rows = Array.from({ length: N }, (_, i) => ({ id: i + 1, event_id: (i % 20000) + 1, operator_id: (i % 8) + 1, betting_market_id: (i % 20) + 1, position: 'home', line: -3.5, price_decimal: 1.91, status: 'open', updated_at: 1700000000000 + i }));
const chunk = Number(process.argv[2] ?? 3555);
let t = performance.now();
await d.db.transaction().execute(async (trx) => {
  for (let i = 0; i < N; i += chunk) {
    await trx.insertInto('odds').values(rows.slice(i, i + chunk)).onConflict((oc) => oc.column('id').doUpdateSet((eb) => ({ event_id: eb.ref('excluded.event_id'), operator_id: eb.ref('excluded.operator_id'), betting_market_id: eb.ref('excluded.betting_market_id'), position: eb.ref('excluded.position'), line: eb.ref('excluded.line'), price_decimal: eb.ref('excluded.price_decimal'), status: eb.ref('excluded.status'), updated_at: eb.ref('excluded.updated_at') }))).execute();
  }
});
console.log('kysely chunk', chunk, performance.now() - t);
