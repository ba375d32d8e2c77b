import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TIERS } from '../../src/modules/auth/index.js';
import { DEFAULT_TIER_LIMITS } from '../../src/modules/limits/index.js';
import { type Entitlement, ENTITLEMENTS, TIER_TABLE } from '../../src/modules/policy/index.js';
import { expectGeneratedSection } from '../helpers/generated-docs.js';

const API_MD = new URL('../../docs/api.md', import.meta.url);
const number = (n: number | null) => (n === null ? 'no cap' : n.toLocaleString('en-US'));

/** docs/api.md#tiers, row by row, from the tier table. */
function tierTable(): string[] {
  const cell = (entitlement: Entitlement) =>
    TIERS.map((tier) => {
      const rights = TIER_TABLE[tier];
      if (!rights.reads.includes(entitlement)) return '—';
      if (entitlement === 'odds-stream') return `${rights.streams} open streams`;
      return entitlement === 'webhooks' ? `${number(rights.limits.webhookEndpoints)} endpoints` : 'yes';
    });
  const limits = TIERS.map((tier) => `${number(TIER_TABLE[tier].limits.perMinute)} / ${number(TIER_TABLE[tier].limits.perDay)}`);
  return [
    `| | ${TIERS.join(' | ')} |`,
    `|---|${TIERS.map(() => ':---:').join('|')}|`,
    ...(Object.keys(ENTITLEMENTS) as Entitlement[]).map((entitlement) => `| ${ENTITLEMENTS[entitlement].row} | ${cell(entitlement).join(' | ')} |`),
    `| requests per minute / per day ([Rate limits and quotas](#rate-limits-and-quotas)) | ${limits.join(' | ')} |`,
  ];
}

/** docs/api.md#rate-limits-and-quotas: the default limits. */
function limitsTable(): string[] {
  return [
    '| tier | per minute | per day |',
    '|---|---:|---:|',
    ...TIERS.map((tier) => `| \`${tier}\` | ${number(TIER_TABLE[tier].limits.perMinute)} | ${number(TIER_TABLE[tier].limits.perDay)} |`),
  ];
}

describe('what each tier gets: one table, and the docs say what it says', () => {
  it('docs/api.md#tiers is the tier table', () => {
    expectGeneratedSection(API_MD, 'tiers', tierTable());
  });

  it("docs/api.md's default limits are the tier table's, and so are the limiter's defaults", () => {
    expectGeneratedSection(API_MD, 'tier-limits', limitsTable());
    for (const tier of TIERS) expect(DEFAULT_TIER_LIMITS[tier]).toEqual(TIER_TABLE[tier].limits);
  });

  it("docs/api.md's stream caps are the tier table's", () => {
    const streaming = TIERS.filter((tier) => TIER_TABLE[tier].streams > 0);
    const text = readFileSync(API_MD, 'utf8');
    expect(text).toContain(`| open odds streams per client | ${streaming.map((tier) => `${TIER_TABLE[tier].streams} (${tier})`).join(', ')} |`);
    expect(text).toContain(streaming.map((tier) => `${TIER_TABLE[tier].streams} per ${tier} client`).join(' and '));
  });

  it('a tier may open streams exactly when it reads the odds stream', () => {
    for (const tier of TIERS) expect(TIER_TABLE[tier].streams > 0, tier).toBe(TIER_TABLE[tier].reads.includes('odds-stream'));
  });

  it('a tier keeps webhook endpoints by default exactly when it has webhooks', () => {
    for (const tier of TIERS) expect(TIER_TABLE[tier].limits.webhookEndpoints !== 0, tier).toBe(TIER_TABLE[tier].reads.includes('webhooks'));
  });
});
