import type { Kysely, Selectable } from 'kysely';
import type { Schema, TagTypesTable } from '../../platform/db/schema.js';
import type { SubnationalRegionItem } from './taxonomy.schemas.js';

/** A stored tag type, its ids read as numbers. */
export type TagTypeRow = Selectable<TagTypesTable>;

/**
 * The flow tag taxonomy and the subnational regions as stored: small tables (hundreds of rows),
 * each read whole, in id order.
 */
export interface TaxonomyRepository {
  /** Every tag dimension. */
  tagDimensions(): Promise<Array<{ id: number; key: string; name: string }>>;
  /** Every tag type, the values included. */
  tagTypes(): Promise<TagTypeRow[]>;
  /** Every subnational region, already in the shape the API shows. */
  subnationalRegions(): Promise<SubnationalRegionItem[]>;
  /** The ids of every country: a region list names one. */
  countryIds(): Promise<number[]>;
}

export function createTaxonomyRepository(db: Kysely<Schema>): TaxonomyRepository {
  return {
    async tagDimensions() {
      const rows = await db.selectFrom('tag_dimensions').select(['id', 'key', 'name']).orderBy('id').execute();
      return rows.map((d) => ({ id: Number(d.id), key: d.key, name: d.name }));
    },
    async tagTypes() {
      return (await db.selectFrom('tag_types').selectAll().orderBy('id').execute()).map((r) => ({
        ...r,
        id: Number(r.id),
        dimension_id: Number(r.dimension_id),
        parent_id: r.parent_id === null ? null : Number(r.parent_id),
      }));
    },
    async subnationalRegions() {
      const rows = await db.selectFrom('subnational_regions').select(['id', 'key', 'name', 'code', 'country_id']).orderBy('id').execute();
      return rows.map((r) => ({ id: Number(r.id), key: r.key, name: r.name, code: r.code, country_id: Number(r.country_id) }));
    },
    async countryIds() {
      return (await db.selectFrom('countries').select('id').execute()).map((r) => Number(r.id));
    },
  };
}
