import { expect } from 'vitest';
import type { TestApp } from './app.js';

/** GET /metrics through the app; the exposition text. */
export async function scrape(t: TestApp): Promise<string> {
  const res = await t.app.inject({ method: 'GET', url: '/metrics' });
  expect(res.statusCode).toBe(200);
  return res.body;
}

/**
 * The value of the sample `name` whose labels are exactly `labels` (in any order), or undefined
 * when the exposition has no such sample.
 */
export function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels).sort(([a], [b]) => a.localeCompare(b));
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = [...(match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)]
      .map((m) => [m[1] ?? '', m[2] ?? ''] as const)
      .sort(([a], [b]) => a.localeCompare(b));
    if (JSON.stringify(found) === JSON.stringify(wanted)) return Number(match[3]);
  }
  return undefined;
}

/** Like `sample`, but absent is 0: for counters, whose series may not exist before their first increment. */
export function count(text: string, name: string, labels: Record<string, string> = {}): number {
  return sample(text, name, labels) ?? 0;
}
