import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { BASE_ENV as BASE, refusal } from '../helpers/config.js';

describe('scale-out and shutdown configuration', () => {
  it('defaults: one worker, a poll each second, no drain, 10 s to finish', () => {
    expect(loadConfig(BASE)).toMatchObject({ workers: 1, changePollMs: 1000, shutdownDrainMs: 0, shutdownTimeoutMs: 10_000 });
  });

  it('reads WORKERS (auto = one per core), CHANGE_POLL_MS, SHUTDOWN_DRAIN_MS and SHUTDOWN_TIMEOUT (seconds)', () => {
    const config = loadConfig({ ...BASE, WORKERS: '3', CHANGE_POLL_MS: '250', SHUTDOWN_DRAIN_MS: '5000', SHUTDOWN_TIMEOUT: '30' });
    expect(config).toMatchObject({ workers: 3, changePollMs: 250, shutdownDrainMs: 5000, shutdownTimeoutMs: 30_000 });
    expect(loadConfig({ ...BASE, WORKERS: 'auto' }).workers).toBe(availableParallelism());
  });

  it('refuses bad values, naming each variable', () => {
    expect(refusal({ WORKERS: '0' })).toMatch(/WORKERS must be "auto" or an integer from 1 to/);
    expect(refusal({ WORKERS: 'many' })).toMatch(/WORKERS/);
    expect(refusal({ CHANGE_POLL_MS: '5' })).toMatch(/CHANGE_POLL_MS must be an integer from 10/);
    expect(refusal({ SHUTDOWN_DRAIN_MS: '-1' })).toMatch(/SHUTDOWN_DRAIN_MS/);
    expect(refusal({ SHUTDOWN_TIMEOUT: '1.5' })).toMatch(/SHUTDOWN_TIMEOUT/);
  });
});
