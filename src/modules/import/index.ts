/** Import: the operator's bulk load, validated whole, then upserted in one transaction. */
export { importRoutes } from './import.routes.js';
export type { Dataset, DatasetRecords } from './import.schemas.js';
export type { ImportResult, QueueReleased } from './import-result.schemas.js';
export { SourceRowsWritten } from './import-result.schemas.js';
export { IMPORT_LIMITS, readDatasetFile, registerDatasetParser } from './import.body.js';
export { Problems } from './import.checks.js';
export { createImportService, type ImportService } from './import.service.js';
export type { ReleaseAliased, WithinImport } from './import.service.js';
export { createImportThread, type ImportThread } from './import.thread.js';
export { type FromImportThread, threadErrorOf, type ToImportThread } from './import.thread-messages.js';
export { upsertAliases } from './import-identity.repository.js';
