/** Usage metering (charged requests per client, day and route group) and the usage reports. */
export { createDaySeeds } from './day-seeds.js';
export { createUsageMeter, type UsageMeter } from './usage-meter.js';
export { createUsagePurgeJob, purgeOldHours, purgeOldUsage } from './usage.purge.js';
export { createUsageRepository, type UsageRepository } from './usage.repository.js';
export { usageRoutes } from './usage.routes.js';
export { type Usage, type UsageQuery } from './usage.schemas.js';
export { createUsageService, type UsageService } from './usage.service.js';
