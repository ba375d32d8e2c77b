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
export { createMarketEdges, type MarketEdge, type MarketEdges } from './edges.markets.js';
export type { Arbitrage, ValueBet } from './edges.service.js';
export { createMoveEvents, createMovesService, moveItemOf, type MovesService } from './moves.service.js';
export { movesRoutes } from './moves.routes.js';
export { createMovesWork, type MovesWork, ODDS_MOVES_CURSOR } from './moves.work.js';
export { movesRepository, type StoredMove } from './moves.repository.js';
export type { MoveThresholds } from './moves.detect.js';
export { MoveItem } from './moves.schemas.js';
