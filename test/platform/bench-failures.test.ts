import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BATCH, type OddsRow, runFeed, slateOf } from '../../bench/feed/feeder.js';

/**
 * The feed of the benchmarks (bench/feed.ts, bench/board.ts, bench/streams.ts) imports while a
 * phase runs. An import that failed in the middle of a phase was a promise nobody awaited until the
 * phase ended: the process died of an unhandled rejection, past every cleanup, and left its
 * server, stream clients and throwaway database behind. A failed import ends the phase at once.
 */
describe("the benchmarks' feed", () => {
  const server = createServer((_req, res) => void res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"broken"}'));
  let url = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const rows: OddsRow[] = Array.from({ length: BATCH }, (_, i) => ({
    id: i + 1,
    event_id: 1,
    operator: { id: 1 },
    betting_market: { id: 1 },
    position: 'home',
    line: null,
    price_decimal: 2,
    status: 'open',
  }));

  it('fails the phase as soon as an import fails', async () => {
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', record);
    try {
      // A phase that would never end on its own: only the failed import can end it.
      const phase = runFeed(url, 'token', slateOf(rows), 1000, [], () => new Promise<never>(() => {}));
      await expect(phase).rejects.toThrow(/answered 500/);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', record);
    }
  });
});

/**
 * After Ctrl-C the cleanup stops the server while the run is still using it, so the run fails as
 * the cleanup goes on: that failure ended the process before the cleanup had finished (a database
 * not dropped). The cleanup is finished first, then the process exits with 130.
 */
describe("the benchmarks' cleanup after a signal", () => {
  it('finishes before the failure it causes ends the process', async () => {
    const script = [
      "import { guarded } from './bench/feed/cleanup.ts';",
      'let started;',
      'const undoStarted = new Promise((resolve) => (started = resolve));',
      // The undo takes a few turns of the event loop, as a database's drop does; the run fails as soon as it has begun.
      "const undo = async () => { started(); for (let i = 0; i < 3; i += 1) await new Promise((r) => setImmediate(r)); process.stdout.write('undone\\n'); };",
      // A run always waits on something that keeps the process alive (its server, its sockets): the timer stands for it. Without
      // it the child's event loop would empty before the signal came, and Node would end it (code 13) with nothing undone.
      'setInterval(() => {}, 1000);',
      "await guarded(undo, async () => { process.stdout.write('ready\\n'); await undoStarted; throw new Error('the server went away'); });",
    ].join('\n');
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out === 'ready\n') child.kill('SIGINT');
    });
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(out).toBe('ready\nundone\n');
    expect(code).toBe(130);
  });
});
