import { ADMIN_SECURITY } from '../../platform/http/openapi.js';
import type { ModuleRoutes } from '../../platform/http/types.js';
import { adminGuard } from '../auth/index.js';
import { schemaError } from './import.checks.js';
import { Dataset, ImportResult } from './import.schemas.js';
import type { ImportService } from './import.service.js';

/**
 * A full dump is large: the `--scale 10` demo dataset (1M odds, 200k flows) is about 240 MB of
 * JSON. Larger files go through `sportsdata import FILE`, which has no body limit.
 */
export const IMPORT_BODY_LIMIT = 256 * 1024 * 1024;

/** POST /admin/v1/import: the operator's bulk load (docs/operations.md#loading-data). */
export const importRoutes: ModuleRoutes<{ adminToken: string | undefined; importer: ImportService }> = async (app, { adminToken, importer }) => {
  app.post(
    '/admin/v1/import',
    {
      onRequest: adminGuard(adminToken),
      bodyLimit: IMPORT_BODY_LIMIT,
      // Validation errors come to the handler, which names at most 100 of them: a dump with a
      // million bad rows must not answer with a million details.
      attachValidation: true,
      schema: {
        tags: ['admin'],
        summary: 'Import a dataset (upsert by id, all or nothing)',
        description:
          'Every array is optional. Ids are the upstream integers; derived fields (qualified keys, sport_id/league_id of ' +
          'events and flows, bet_type, other price formats) are computed. The whole dataset is validated before anything ' +
          'is written: a bad item answers 422 naming `array[index].field`, and nothing is imported. Body limit 256 MiB.',
        security: ADMIN_SECURITY,
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
