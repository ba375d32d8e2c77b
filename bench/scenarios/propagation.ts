import { call } from './http.js';

export interface Propagation {
  samples: number[];
  p50: number;
  p99: number;
}

/**
 * How long a change made on node A takes to show on node B: disable (then enable) a client on A
 * through the admin API, and from A's answer (the change has committed) ask B in a tight loop
 * until B's answer flips (401 client_disabled, then 200 again). `rounds` flips; B is asked with no
 * pause, so the resolution is one round trip (about a millisecond on this machine). Each change
 * waits a random 0–`jitterMs` first: otherwise every change would land just after B's last poll
 * (B has just flipped) and the poll figures would show a whole interval instead of its spread.
 */
export async function propagationLatency(a: string, b: string, adminToken: string, rounds: number, jitterMs = 1000): Promise<Propagation> {
  const admin = { authorization: `Bearer ${adminToken}` };
  const client = await call<{ client_id: string; api_key: string }>(a, 'POST', '/admin/v1/clients', {
    headers: admin,
    body: { name: 'Propagation probe', tier: 'enterprise', auth_method: 'both' },
  });
  const onB = async () => (await fetch(`${b}/v1/account/config`, { headers: { 'x-api-key': client.api_key } })).status;
  // B loads the account and hears of its creation; from then on it answers from its cache.
  await onB();
  await new Promise((resolve) => setTimeout(resolve, 1500));
  await onB();

  const samples: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const disabled = round % 2 === 0;
    await new Promise((resolve) => setTimeout(resolve, Math.random() * jitterMs));
    await patch(a, admin, client.client_id, disabled);
    const committed = performance.now();
    const expected = disabled ? 401 : 200;
    while ((await onB()) !== expected) {
      // ask again at once
    }
    samples.push(performance.now() - committed);
  }
  const sorted = [...samples].sort((x, y) => x - y);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return { samples, p50: at(0.5), p99: at(0.99) };
}

async function patch(url: string, headers: Record<string, string>, clientId: string, disabled: boolean): Promise<void> {
  const res = await fetch(`${url}/admin/v1/clients/${clientId}`, {
    method: 'PATCH',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ disabled }),
  });
  if (!res.ok) throw new Error(`PATCH answered ${res.status}`);
}
