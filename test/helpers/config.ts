import { expect } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

/** The smallest environment loadConfig accepts: an in-memory database and a JWT secret. */
export const BASE_ENV = { DATA_DIR: '/nonexistent-test-data-dir', JWT_SECRET: 'a-jwt-secret-that-is-at-least-32-bytes-long', DATABASE_URL: 'sqlite::memory:' };

/** The message loadConfig refuses BASE_ENV with `changes` with; fails the test if it accepts it. */
export function refusal(changes: Record<string, string>): string {
  try {
    loadConfig({ ...BASE_ENV, ...changes });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  throw new Error('loadConfig accepted the configuration');
}
