import { Type } from 'typebox';
import { pagingProperties } from '../../platform/pagination.js';
import { Id } from '../../shared/wire.js';

/** The building blocks of the reference lists' schemas (references.schemas.ts, taxonomy.schemas.ts). */

/** page_size maximum of every reference list (docs/api.md#references). */
export const REFERENCES_MAX_PAGE_SIZE = 100;

/** A record of a list, titled in the document and closed: a field the schema does not describe is not sent. */
export const record = <P extends Parameters<typeof Type.Object>[0]>(title: string, properties: P) =>
  Type.Object(properties, { title, additionalProperties: false });

/** The id, key and name a reference record starts with, each described. */
export const keyedProperties = (descriptions: { id: string; key: string; name: string }) => ({
  id: Id(descriptions.id),
  key: Type.String({ description: descriptions.key }),
  name: Type.String({ description: descriptions.name }),
});

/** Unknown query parameters are rejected (422 naming them): a misspelt filter must not silently list everything. */
export const listQuery = <P extends Parameters<typeof Type.Object>[0]>(title: string, properties: P) =>
  Type.Object({ ...pagingProperties(REFERENCES_MAX_PAGE_SIZE), ...properties }, { title, additionalProperties: false });
