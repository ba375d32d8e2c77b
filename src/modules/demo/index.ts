/** The demo: one client and a generated dataset, so that a fresh clone can be tried at once. */
export { type DemoCredentials, demoCredentialsFile, ensureDemoClient } from './demo-client.js';
export { type DemoDataDeps, ensureDemoData, hasNoSportsData, loadDemoData } from './demo-data.js';
export { DEFAULT_SEED } from './generator/index.js';
export { createDemoTicker, type DemoTicker, type DemoTickerDeps, type TickResult, TICK_MS } from './ticker/demo.ticker.js';
export { createTickerRepository, type TickerRepository } from './ticker/ticker.repository.js';
