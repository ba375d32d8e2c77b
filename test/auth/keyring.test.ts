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
