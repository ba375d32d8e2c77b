/** Rate limits and daily quotas per tier, with per-client overrides: enforced on every client call. */
export { dayCounterOf, type WindowName } from './limit-plan.js';
export { createRateLimiter, type RejectListener, type RateLimiter, type RateLimiterDeps, type WindowState } from './rate-limiter.js';
export { createLimitPolicy, DEFAULT_TIER_LIMITS, isLimit, LIMIT_MAX, type LimitPolicy, type Limits, parseTierLimits, type TierLimits, type TierLimitSet } from './tier-limits.js';
