import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Scenario } from '../load.js';
import type { DemoCredentials } from '../run.js';
import { bearerFor, busiestEvent } from './data.js';

/**
 * Compression of the odds page of 100, to choose the level and the threshold (decision 0074).
 * - Over loopback, through the API: the page with no Accept-Encoding, with `gzip` and with `br`
 *   (req/s; the API compresses each page once and keeps it, page-codings.ts).
 * - In this process, over the same bytes: each level's size and time per compression — what
 *   compressing on every request would cost — for the page of 100 and for small pages (the threshold).
 */
export async function compressionScenarios(baseUrl: string, demo: DemoCredentials): Promise<{ scenarios: Scenario[]; notes: string[] }> {
  const auth = { authorization: await bearerFor(baseUrl, demo) };
  const busiest = await busiestEvent(baseUrl, auth);
  const request = (pageSize: number, accept?: string) => ({
    method: 'POST' as const,
    path: '/v1/odds/upcoming-odds-by-event',
    headers: { 'content-type': 'application/json', ...auth, ...(accept === undefined ? {} : { 'accept-encoding': accept }) },
    body: JSON.stringify({ event_id: busiest.id, page_size: pageSize }),
  });
  const page = async (pageSize: number) => {
    const { method, path, headers, body } = request(pageSize);
    const res = await fetch(`${baseUrl}${path}`, { method, headers: { ...headers, 'accept-encoding': 'identity' }, body });
    if (!res.ok) throw new Error(`${path} answered ${res.status}`);
    return Buffer.from(await res.arrayBuffer());
  };
  const sizes = [
    { label: 'odds page of 100', bytes: await page(100) },
    { label: 'odds page of 3', bytes: await page(3) },
    { label: 'odds page of 1', bytes: await page(1) },
  ];
  const wire = await Promise.all(
    ['identity', 'gzip', 'br'].map(async (accept) => {
      const { method, path, headers, body } = request(100, accept);
      const res = await fetch(`${baseUrl}${path}`, { method, headers, body });
      const length = res.headers.get('content-length');
      await res.arrayBuffer();
      return `${accept} ${length ?? '?'} B`;
    }),
  );
  return {
    scenarios: [
      { name: `POST odds-by-event, page of 100, no Accept-Encoding`, requests: [request(100)] },
      { name: `POST odds-by-event, page of 100, Accept-Encoding: gzip`, requests: [request(100, 'gzip')] },
      { name: `POST odds-by-event, page of 100, Accept-Encoding: br`, requests: [request(100, 'br')] },
    ],
    notes: [`odds page of 100 as sent (Content-Length): ${wire.join(', ')}`, ...sizes.map(({ label, bytes }) => levelTable(label, bytes))],
  };
}

const LEVELS: Array<{ name: string; compress: (body: Buffer) => Buffer }> = [
  ...[1, 4, 5, 6, 9, 11].map((quality) => ({
    name: `br ${quality}`,
    compress: (body: Buffer) =>
      brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } }),
  })),
  ...[1, 6, 9].map((level) => ({ name: `gzip ${level}`, compress: (body: Buffer) => gzipSync(body, { level }) })),
];

/** One line per level: bytes, the share saved, and the time one compression takes (median of several). */
function levelTable(label: string, body: Buffer): string {
  const rows = LEVELS.map(({ name, compress }) => {
    const out = compress(body);
    const runs = Math.max(5, Math.min(200, Math.round(2_000_000 / body.length)));
    const times: number[] = [];
    for (let i = 0; i < runs; i += 1) {
      const started = process.hrtime.bigint();
      compress(body);
      times.push(Number(process.hrtime.bigint() - started) / 1000);
    }
    times.sort((a, b) => a - b);
    const micros = times[Math.floor(times.length / 2)] ?? 0;
    return `${name}: ${out.length} B (−${Math.round((1 - out.length / body.length) * 100)} %), ${micros.toFixed(0)} µs`;
  });
  return `${label}, ${body.length} B plain — ${rows.join('; ')}`;
}
