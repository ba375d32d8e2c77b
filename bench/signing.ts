import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { signatureOf } from '../src/modules/webhooks/webhook.sender.js';

/**
 * `npx tsx bench/signing.ts [--changes 450]`: one webhook signature over a delivery of that many
 * price changes, by the `standardwebhooks` package's signer and by the service's (Node's HMAC),
 * in one run: the figure behind the hand-written signer (docs/architecture.md). Both must give the
 * same text, or the run stops.
 */
const at = process.argv.indexOf('--changes');
const changes = Number(at >= 0 ? process.argv[at + 1] : 450);
const secret = `whsec_${randomBytes(32).toString('base64')}`;
const item = (i: number) => ({ id: i, odds_id: i * 7, price_decimal: { from: 1.9, to: 1.95 }, changed_at: '2026-12-06T18:00:00.000Z', status: 'open' });
const body = JSON.stringify({ type: 'odds.changed', timestamp: '2026-12-06T18:00:00.000Z', data: { sequence: 1, changes: Array.from({ length: changes }, (_, i) => item(i)) } });
const now = new Date(Date.parse('2026-12-06T18:00:00Z'));
const timestamp = String(Math.floor(now.getTime() / 1000));
const signers: Array<[string, () => string]> = [
  ['standardwebhooks Webhook.sign', () => new Webhook(secret).sign('msg_1', now, body)],
  ['signatureOf (node:crypto HMAC)', () => signatureOf(secret, 'msg_1', timestamp, body)],
];
const [first, second] = signers.map(([, sign]) => sign());
if (first !== second) throw new Error('the two signers disagree');
console.log(`one signature over a body of ${body.length.toLocaleString('en-US')} bytes (${changes} changes):`);
for (const [name, sign] of signers) {
  for (let i = 0; i < 50; i++) sign();
  const rounds = 500;
  const started = performance.now();
  for (let i = 0; i < rounds; i++) sign();
  console.log(`  ${name}: ${((performance.now() - started) / rounds).toFixed(3)} ms`);
}
