import { readFileSync } from 'node:fs';
import { openStream, type SseStream } from '../../test/helpers/sse.js';
import { type LoadOptions, measure, type Scenario } from '../load.js';
import { call } from './http.js';

/**
 * The price history's measurements (decisions 0126, 0128): the server's memory while it streams a
 * 100,000-change history file, the latency of a change from an import on node A to a stream on node
 * B, and what 500 open streams cost a node in memory and in cached-read throughput.
 */

/** The server process's resident set, in MB (Linux: /proc/PID/status). */
export function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? Number.NaN) / 1024;
}

/** Samples a process's RSS every `everyMs` while `work` runs; the peak, and the value before. */
async function peakRss<T>(pid: number, work: () => Promise<T>, everyMs = 20): Promise<{ before: number; peak: number; result: T }> {
  const before = rssMb(pid);
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, rssMb(pid));
  }, everyMs);
  try {
    const result = await work();
    peak = Math.max(peak, rssMb(pid));
    return { before, peak, result };
  } finally {
    clearInterval(timer);
  }
}

/** The server's V8 heap in use, in MB, as its /metrics says (nodejs_heap_used_bytes). */
async function heapMb(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Number(/^nodejs_heap_used_bytes (\S+)$/m.exec(text)?.[1] ?? Number.NaN) / 1024 / 1024;
}

const admin = (adminToken: string) => ({ authorization: `Bearer ${adminToken}` });

/** Event `eventId` of the demo data gains `rows` odds rows, then each moves once: 2 × rows changes. */
export async function prepareBigHistory(url: string, adminToken: string, eventId: number, rows: number): Promise<void> {
  const odds = Array.from({ length: rows }, (_, i) => ({
    id: 50_000_000 + i,
    event_id: eventId,
    operator_id: 1 + (i % 5),
    betting_market_id: 1 + (i % 3),
    position: i % 2 === 0 ? 'home' : 'Jordan Reyes over',
    line: i % 2 === 0 ? null : 20.5,
    price_decimal: 1.5 + (i % 100) / 100,
  }));
  for (const move of [0, 0.01]) {
    await call(url, 'POST', '/admin/v1/import', { headers: admin(adminToken), body: { odds: odds.map((o) => ({ ...o, price_decimal: o.price_decimal + move })) } });
  }
}

export interface ExportMemory {
  name: string;
  mb: number;
  seconds: number;
  baseline: number;
  peak: number;
}

/** Downloads the event's history (CSV and JSON, plain and gzip) and reports the server's RSS growth for each. */
export async function exportMemory(url: string, apiKey: string, pid: number, eventId: number): Promise<ExportMemory[]> {
  const out: ExportMemory[] = [];
  for (const format of ['csv', 'json']) {
    for (const coding of ['identity', 'gzip']) {
      // A collection first, so that garbage of the preparation does not count as growth.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const started = performance.now();
      const { before, peak, result } = await peakRss(pid, async () => {
        const res = await fetch(`${url}/v1/historical/odds/${eventId}.${format}`, { headers: { 'x-api-key': apiKey, 'accept-encoding': coding } });
        if (!res.ok || !res.body) throw new Error(`the export answered ${res.status}`);
        // Read and dropped: the client keeps nothing, only the server is measured.
        let bytes = 0;
        for await (const chunk of res.body) bytes += (chunk as Uint8Array).length;
        return bytes;
      });
      out.push({ name: `${format}, ${coding}`, mb: result / 1024 / 1024, seconds: (performance.now() - started) / 1000, baseline: before, peak });
    }
  }
  return out;
}

export interface Latency {
  samples: number[];
  p50: number;
  p99: number;
}

export function quantiles(samples: number[]): Latency {
  const sorted = [...samples].sort((x, y) => x - y);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return { samples, p50: at(0.5), p99: at(0.99) };
}

/**
 * From the moment node A answers an import (the change has committed) to the moment a client
 * streaming from node B holds the change: `rounds` imports of one price move, each after a random
 * pause of up to `jitterMs` (so that the changes fall anywhere in B's poll interval).
 */
export async function streamLatency(a: string, b: string, adminToken: string, apiKey: string, eventId: number, rounds: number, jitterMs = 300): Promise<{ fromAnswer: Latency; fromRequest: Latency }> {
  const stream = await openStream(`${b}/v1/stream/odds?event_ids=${eventId}`, { 'x-api-key': apiKey });
  if (stream.status !== 200) throw new Error(`the stream answered ${stream.status}: ${stream.error}`);
  const fromAnswer: number[] = [];
  const fromRequest: number[] = [];
  try {
    for (let round = 0; round < rounds; round += 1) {
      await new Promise((resolve) => setTimeout(resolve, Math.random() * jitterMs));
      const price = 1.5 + (round % 50) / 100 + 0.001;
      const sent = performance.now();
      await call(a, 'POST', '/admin/v1/import', { headers: admin(adminToken), body: { odds: [{ id: 60_000_000, event_id: eventId, operator_id: 1, betting_market_id: 1, position: 'home', price_decimal: price + round * 0.0001 }] } });
      const answered = performance.now();
      await stream.next(10_000);
      const received = performance.now();
      fromAnswer.push(received - answered);
      fromRequest.push(received - sent);
    }
  } finally {
    stream.close();
  }
  return { fromAnswer: quantiles(fromAnswer), fromRequest: quantiles(fromRequest) };
}

export interface ManyStreams {
  count: number;
  rssBefore: number;
  rssOpen: number;
  heapBefore: number;
  heapOpen: number;
  fanOut: Latency;
  /** req/s of each round, without and with the streams open. */
  readsWithout: number[];
  readsWith: number[];
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;


/**
 * `count` streams on one node (enterprise clients, 50 each): the node's RSS before and with them
 * open, the time one change takes to reach all of them, and the throughput of a cached read
 * without and with them, in `rounds` alternating rounds (the machine's noise hits both alike).
 */
export async function manyStreams(url: string, adminToken: string, pid: number, read: Scenario, load: LoadOptions, eventId: number, count = 500, rounds = 3): Promise<ManyStreams> {
  const keys: string[] = [];
  for (let i = 0; i < Math.ceil(count / 50); i += 1) {
    const client = await call<{ api_key: string }>(url, 'POST', '/admin/v1/clients', { headers: admin(adminToken), body: { name: `Streams ${i}`, tier: 'enterprise', auth_method: 'both' } });
    keys.push(client.api_key);
  }
  const open = async (): Promise<SseStream[]> => {
    const streams: SseStream[] = [];
    for (let i = 0; i < count; i += 50) {
      const batch = Array.from({ length: Math.min(50, count - i) }, (_, j) => openStream(`${url}/v1/stream/odds?event_ids=${eventId}`, { 'x-api-key': keys[Math.floor((i + j) / 50)] ?? '' }));
      streams.push(...(await Promise.all(batch)));
    }
    const refused = streams.find((s) => s.status !== 200);
    if (refused) throw new Error(`a stream was refused: ${refused.error}`);
    return streams;
  };
  const settle = () => new Promise((resolve) => setTimeout(resolve, 1500));
  // A warm-up of the read, so that the first round does not pay for the JIT and the caches.
  await measure(url, read, load);
  const readsWithout: number[] = [];
  const readsWith: number[] = [];
  const fanOut: number[] = [];
  let rssBefore = Number.NaN;
  let rssOpen = Number.NaN;
  let heapBefore = Number.NaN;
  let heapOpen = Number.NaN;
  for (let round = 0; round < rounds; round += 1) {
    await settle();
    readsWithout.push((await measure(url, read, { ...load, warmupSeconds: 0 })).reqPerSec);
    await settle();
    if (round === 0) [rssBefore, heapBefore] = [rssMb(pid), await heapMb(url)];
    const streams = await open();
    try {
      if (round === 0) {
        for (let change = 0; change < 10; change += 1) {
          await call(url, 'POST', '/admin/v1/import', { headers: admin(adminToken), body: { odds: [{ id: 60_000_001, event_id: eventId, operator_id: 1, betting_market_id: 1, position: 'away', price_decimal: 2 + change / 100 }] } });
          const answered = performance.now();
          await Promise.all(streams.map((s) => s.next(10_000)));
          fanOut.push(performance.now() - answered);
        }
        await settle();
        [rssOpen, heapOpen] = [rssMb(pid), await heapMb(url)];
      }
      readsWith.push((await measure(url, read, { ...load, warmupSeconds: 0 })).reqPerSec);
    } finally {
      for (const s of streams) s.close();
    }
  }
  return { count, rssBefore, rssOpen, heapBefore, heapOpen, fanOut: quantiles(fanOut), readsWithout, readsWith };
}
