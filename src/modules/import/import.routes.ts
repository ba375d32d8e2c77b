import type { ModuleRoutes } from '../../platform/http/types.js';
import { IMPORT_LIMITS, registerDatasetParser } from './import.body.js';
import { schemaError } from './import.checks.js';
import { Dataset } from './import.schemas.js';
import { ImportResult } from './import-result.schemas.js';
import type { ImportService } from './import.service.js';

/** POST /admin/v1/import: the operator's bulk load (docs/operations.md#loading-data). */
export const importRoutes: ModuleRoutes<{ importer: Pick<ImportService, 'importChecked'> }> = async (app, { importer }) => {
  // This scope's JSON parser bounds the body's bytes, depth and item count before parsing it.
  registerDatasetParser(app);

  app.post(
    '/admin/v1/import',
    {
      config: { policy: { auth: 'admin', cache: 'no-store' } },
      // Validation errors come to the handler, which names at most 100 of them: a dump with a
      // million bad rows must not answer with a million details.
      attachValidation: true,
      schema: {
        tags: ['admin'],
        summary: 'Import a dataset (upsert by id, all or nothing)',
        description:
          'Every array is optional. Ids are the upstream integers; derived fields (qualified keys, sport_id/league_id of ' +
          'events and flows, bet_type, other price formats) are computed. The whole dataset is validated before anything ' +
          'is written: a bad item answers 422 naming `array[index].field`, and nothing is imported. The body is at most ' +
          `${IMPORT_LIMITS.maxBytes / (1024 * 1024)} MiB (413), nested at most ${IMPORT_LIMITS.maxDepth} levels and with at most ` +
          `${IMPORT_LIMITS.maxFieldNames} distinct field names (422); split larger datasets into several imports.`,
        body: Dataset,
        response: { 200: ImportResult },
      },
    },
    async (request) => {
      if (request.validationError) throw schemaError(request.validationError.validation);
      // The body has passed the Dataset schema (Fastify validated it): no second check.
      return importer.importChecked(request.body);
    },
  );
};
