/** Quotes through a client's own pricing endpoint: the check endpoint, the quote, the sandbox operator. */
export { type CheckEndpoints, createCheckEndpoints } from './check-endpoints.js';
export { createHydrator } from './hydrate.js';
export { createQuoteService, MAX_ANSWER_BYTES, type QuoteMetrics } from './quote.service.js';
export { quotesRoutes } from './quotes.routes.js';
