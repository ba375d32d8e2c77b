import type { ClientPolicy } from '../policy/index.js';

/**
 * The account's own state and credentials, unlike data: no cache may keep them (an operator's
 * change shows at once), and they count against the minute only, so that a client over its daily
 * quota can still read its account and manage its keys.
 */
export const ACCOUNT_POLICY: ClientPolicy = { auth: 'client', tier: 'basics', limit: 'account', usage: 'account', cache: 'no-store' };
