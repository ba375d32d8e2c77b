/** Import: the operator's bulk load, validated whole, then upserted in one transaction. */
export { importRoutes } from './import.routes.js';
export type { Dataset, DatasetRecords, ImportResult } from './import.schemas.js';
export { readDatasetFile } from './import.body.js';
export { createImportService, type ImportService } from './import.service.js';
