/** Price history: every change of an odds row, as a paged list, as files and exports, and to stream; its purge; and the history processors, work computed once from it after the imports. */
export { createHistoryPurgeJob, purgeOldHistory } from './history.purge.js';
export { createCursorProcessor, createHistoryProcessor, type CursorSource, type HistoryProcessor, type HistoryWork, processorsInOrder, type ProcessorsInOrder } from './history.processor.js';
export { CHANGE_COLUMNS, type ChangeColumn, createHistoryRepository, type HistoryRepository, type StreamFilter, type StreamRow, streamRowOf, type WrittenChange } from './history.repository.js';
export { createRecentChanges, RECENT_CHAIN_HELD, RECENT_CHANGES_HELD, type RecentChanges } from './history.recent.js';
export { historyRoutes } from './history.routes.js';
export { HistoryItem } from './history.schemas.js';
export { createHistoryService, type HistoryService } from './history.service.js';
export { type ChangeCursor, createChangeCursor } from './history.changes.js';
export { type AsOfBounds, asOfBounds, checkAsOf } from './history.as-of.js';
