import type { LifecycleLog } from '../../src/platform/lifecycle/log.js';

/** For background jobs started by a test that does not look at what they log. */
export const quietLog: LifecycleLog = { info() {}, warn() {}, error() {} };
