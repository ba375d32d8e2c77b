/** Trends: betting trends ("flows"), singles and same-event parlays. */
export { trendsRoutes } from './trends.routes.js';
export { createTrendsService, type TrendsService } from './trends.service.js';
export { ODDITT_NAME } from './flow-vocabulary.js';
