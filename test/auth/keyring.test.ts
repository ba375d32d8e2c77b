import { describe, expect, it } from 'vitest';
import { createKeyring } from '../../src/modules/auth/keyring.js';
import { manualClock } from '../../src/platform/clock.js';
import { TEST_JWT_SECRET } from '../helpers/app.js';

const options = { issuer: 'sports-data-api', audience: 'sports-data-api', ttlSeconds: 900, clock: manualClock() };
const subject = { client_id: '0b9e4f3a-6c1d-4f0e-9a55-2f1e8c7d6b5a', tenant_id: '0b9e4f3a-6c1d-4f0e-9a55-2f1e8c7d6b5b', tier: 'pro' as const, cred: '0b9e4f3a-6c1d-4f0e-9a55-2f1e8c7d6b5c', gen: 1 };

describe('a keyring without keys (a CLI context: JWT_SECRET unset, nothing generated)', () => {
  it('refuses to sign and verifies no token', () => {
    const empty = createKeyring({ ...options, secrets: [] });
    expect(() => empty.sign(subject)).toThrow(/no JWT secret/);
    const { token } = createKeyring({ ...options, secrets: [TEST_JWT_SECRET] }).sign(subject);
    expect(() => empty.verify(token)).toThrow(expect.objectContaining({ reason: 'token_invalid' }));
  });
});

describe('the verified-token cache (decision 0146: keyed by the signature, matching only the whole token)', () => {
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

  it('recalls only a token it verified, and that exact token', () => {
    const keyring = createKeyring({ ...options, clock: manualClock(), secrets: [TEST_JWT_SECRET] });
    const { token, claims } = keyring.sign(subject);
    expect(keyring.recall(token)).toBeUndefined();
    expect(keyring.verify(token)).toEqual(claims);
    expect(keyring.recall(token)).toEqual(claims);
    // The same signature under another payload: not the token the cache holds, and not valid.
    const [header, payload, signature] = token.split('.');
    const edited = `${header}.${b64({ ...JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()), tier: 'enterprise' })}.${signature}`;
    expect(keyring.recall(edited)).toBeUndefined();
    expect(() => keyring.verify(edited)).toThrow(expect.objectContaining({ reason: 'token_invalid' }));
    expect(keyring.recall(signature ?? '')).toBeUndefined();
    expect(keyring.recall(` ${token}`)).toBeUndefined();
  });

  it('checks the expiry of a recalled token on every call', () => {
    const clock = manualClock();
    const keyring = createKeyring({ ...options, clock, secrets: [TEST_JWT_SECRET] });
    const { token } = keyring.sign(subject);
    keyring.verify(token);
    clock.advance((options.ttlSeconds + 11) * 1000);
    expect(() => keyring.recall(token)).toThrow(expect.objectContaining({ reason: 'token_expired' }));
    expect(() => keyring.verify(token)).toThrow(expect.objectContaining({ reason: 'token_expired' }));
  });
});
