import { ApiError } from '../../platform/errors.js';
import type { TierAccess } from '../../platform/http/access.js';
import type { Tier } from './account.js';

/**
 * What each tier may read beyond the basics (docs/api.md#tiers, decision 0127). Every tier reads
 * references, events (upcoming and historical), current odds, trends and its account; the price
 * history, the historical odds files and exports, and the live stream are for the paying tiers.
 */
export const PAID_DATA: readonly Tier[] = ['pro', 'enterprise'];

/**
 * A check for after authentication: a client of another tier is refused with 403 FORBIDDEN naming
 * the tiers that may (`what` says what is refused: "the price history"). Its `tiers` go into the
 * operation's entry of the document.
 */
export function requireTier(allowed: readonly Tier[], what: string): TierAccess {
  const tiers = allowed.length === 1 ? `the ${allowed[0]} tier` : `the ${allowed.slice(0, -1).join(', ')} and ${allowed.at(-1)} tiers`;
  return {
    tiers: allowed,
    check(request) {
      const { tier } = request.principal.client;
      if (!allowed.includes(tier)) throw new ApiError('FORBIDDEN', `${what} is for ${tiers}; this client is on the ${tier} tier`);
    },
  };
}
