/** Trends: betting trends ("flows"), singles and same-event parlays. */
export { trendsRoutes } from './trends.routes.js';
export { createTrendsService, type TrendsService } from './trends.service.js';
