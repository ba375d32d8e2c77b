/** Odds: the odds of one event, by operator and betting market. */
export { oddsRoutes } from './odds.routes.js';
export { createOddsService, type OddsService } from './odds.service.js';
export { PRICE_FORMS } from './odds.schemas.js';
export { createBoardService, type BoardService } from './board.service.js';
export { subjectKeyOf } from './board.selections.js';
export { createEdgesService, type EdgesService } from './edges.service.js';
export { type BoardChange, type BoardChanges, createBoardChanges, type PriceChange } from './board.changes.js';
export { type BoardEventsWork, createBoardEventsWork } from './board.events.js';
export { type BoardChangeBatch, type BoardEventsRepository, createBoardEventsRepository, type LeaguedBoardChange, type StoredBoardChangeBatch } from './board-events.repository.js';
export { createMarketEdges, edgesOfTouched, type MarketEdge, type MarketEdges, type MarketPair, type TouchedMarket, touchedMarkets } from './edges.markets.js';
export type { Arbitrage, ValueBet } from './edges.service.js';
export { findMiddles, type Middle, type MiddleLine, type MiddleRow } from './edges.middles.js';
export { canStillBeBet } from './board.repository.js';
export { movementRoutes } from './movement.routes.js';
export { type AsOfReading, createMovementService, type MovementService } from './movement.service.js';
export type { AsOfCheck } from './as-of.js';
