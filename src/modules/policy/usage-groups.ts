/**
 * The groups usage is counted and reported in (`by_group` of GET /v1/account/usage), each with
 * what it counts: a closed list, read by the usage meter, the usage view and its schema in the
 * document. A client route's policy names its group.
 */
export const USAGE_GROUPS = {
  references: '/v1/references/*',
  events: '/v1/events/*',
  odds: '/v1/odds/*',
  trends: '/v1/trends/*',
  results: '/v1/results/*',
  account: '/v1/account/* (never counted against the daily quota)',
} as const;

export type UsageGroup = keyof typeof USAGE_GROUPS;

/** The groups in their order: a group's index is its place in a day's counts. */
export const USAGE_GROUP_NAMES = Object.keys(USAGE_GROUPS) as UsageGroup[];

/**
 * The group whose requests count against the minute only, never against the daily quota (its
 * routes' limit is `account`): a client can always read its usage and its keys.
 */
export const UNCHARGED_GROUP: UsageGroup = 'account';
