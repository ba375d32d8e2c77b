import type { Clock } from '../../platform/clock.js';
import type { SeedSource } from '../../platform/counters/counter-store.js';
import { dayCounterOf } from '../limits/index.js';
import { UNCHARGED_GROUP } from '../policy/index.js';
import type { UsageMeter } from './usage-meter.js';
import type { UsageRepository } from './usage.repository.js';
import { utcDay } from '../../platform/time.js';

/**
 * The counts a limit store starts each client's day from: what the usage table says the client
 * was charged today, this node's counts not yet written included (they are written first). A
 * restarted process, or a Redis that lost its data, then gives no client its day back.
 */
export function createDaySeeds(deps: { repository: UsageRepository; meter: UsageMeter; clock: Clock }): SeedSource {
  return async () => {
    await deps.meter.flush();
    const now = deps.clock.now();
    const charged = await deps.repository.chargedOn(utcDay(now), UNCHARGED_GROUP);
    return { now, seeds: charged.map(({ clientId, requests }) => ({ counter: dayCounterOf(clientId), count: requests })) };
  };
}
