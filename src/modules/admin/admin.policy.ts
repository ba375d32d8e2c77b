import type { AdminPolicy } from '../policy/index.js';

/** Operators only; answers carry credentials or account state: no cache may keep them. */
export const ADMIN_POLICY: AdminPolicy = { auth: 'admin', cache: 'no-store' };

/** A change to one client can conflict with its state: a deleted client, its last credential of an enabled flow. */
export const CLIENT_CHANGE: { policy: AdminPolicy } = { policy: { ...ADMIN_POLICY, errors: ['CONFLICT'] } };
