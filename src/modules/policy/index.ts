/** What each route declares (who may call it, its tier rule, limit, usage group, cache), what each tier gets, and the plugin that enforces both. */
export { type Admission, declarePluginRoutesPolicy, registerRoutePolicies, type RoutePoliciesDeps } from './policy.plugin.js';
export { ADMIN_SECURITY, type AdminPolicy, CLIENT_SECURITY, type ClientPolicy, type PublicPolicy, type RoutePolicy, type Security, type SessionPolicy } from './route-policy.js';
export { type Entitlement, ENTITLEMENTS, TIER_TABLE, type TierRights, tiersWith } from './tiers.js';
export { UNCHARGED_GROUP, USAGE_GROUP_NAMES, USAGE_GROUPS, type UsageGroup } from './usage-groups.js';
