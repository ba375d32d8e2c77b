import type { Kysely } from 'kysely';
import type { ReadCache } from '../../platform/cache/read-cache.js';
import type { Schema } from '../../platform/db/schema.js';
import { ApiError } from '../../platform/errors.js';
import type { ReferenceList } from './reference-list.js';
import { createTaxonomyRepository, type TagTypeRow, type TaxonomyRepository } from './taxonomy.repository.js';
import { matches, type Search, searchOf } from './search.js';
import {
  FLOW_TYPE_ALIASES,
  type SubnationalRegionItem,
  type SubnationalRegionsQuery,
  TAG_FLOW_TYPES,
  type TagChildrenQuery,
  type TagDimensionItem,
  type TagDimensionsQuery,
  type TagFlowType,
  type TagTypeItem,
  type TagTypesSearchQuery,
} from './taxonomy.schemas.js';

/**
 * The flow tag taxonomy (dimension → tag type → child types → values) and the subnational regions
 * (docs/api.md#flow-tags). Like the other reference tables, each is read whole once per data version.
 */
export interface TaxonomyService {
  /** The dimensions, by flow type. */
  tagDimensions: ReferenceList<TagDimensionsQuery, readonly [TagFlowType | null], TagDimensionItem>;
  /** The tag types (not the values), by search, dimension, flow type, terminality and level. */
  tagTypesSearch: ReferenceList<TagTypesSearchQuery, TagSearchFilters, TagTypeItem>;
  /** The children of one tag type, its values only when asked. */
  tagTypeChildren: ReferenceList<TagChildrenQuery & { tag_type_id: number }, TagChildrenFilters, TagTypeItem>;
  /** The regions of one country (404 for an unknown country), by search. */
  subnationalRegions: ReferenceList<SubnationalRegionsQuery, readonly [number, Search | null], SubnationalRegionItem>;
  /** The tag type a children request drills into: 404 when there is none. */
  tagType(id: number): Promise<TagTypeItem>;
}

/** The filters of a tag type search: the search, the dimension's key, the flow type, terminal types only, the level. */
type TagSearchFilters = readonly [search: Search | null, dimension: string | null, flowType: TagFlowType | null, terminalOnly: boolean, level: number | null];
/** The filters of a tag type's children: the parent, whether values are listed, the flow type. */
type TagChildrenFilters = readonly [parent: number, includeValues: boolean, flowType: TagFlowType | null];

/** The whole taxonomy, read once per data version (hundreds of rows), items already in the API's shape. */
interface Taxonomy {
  dimensions: TagDimensionItem[];
  tagTypes: TagTypeItem[];
  dimensionById: ReadonlyMap<number, TagDimensionItem>;
  tagTypeById: ReadonlyMap<number, TagTypeItem>;
  /** Each tag type's children, in id order. */
  childrenOf: ReadonlyMap<number, readonly TagTypeItem[]>;
}

/** The subnational regions, read once per data version, with the countries a request may name. */
interface Regions {
  items: SubnationalRegionItem[];
  byId: ReadonlyMap<number, SubnationalRegionItem>;
  countries: ReadonlySet<number>;
}

export function createTaxonomyService(deps: { db: Kysely<Schema>; cache: Pick<ReadCache, 'snapshot'> }): TaxonomyService {
  const { cache } = deps;
  const repository = createTaxonomyRepository(deps.db);
  const taxonomy = cache.snapshot('references:tag-taxonomy', () => loadTaxonomy(repository));
  const regions = cache.snapshot('references:subnational-regions', () => loadRegions(repository));
  return {
    tagDimensions: tagDimensionsList(taxonomy),
    tagTypesSearch: tagTypesSearchList(taxonomy),
    tagTypeChildren: tagTypeChildrenList(taxonomy),
    subnationalRegions: subnationalRegionsList(regions),
    async tagType(id) {
      const found = (await taxonomy()).tagTypeById.get(id);
      if (found === undefined) throw new ApiError('NOT_FOUND', `no tag type with tag_type_id ${id}`);
      return found;
    },
  };
}

function tagDimensionsList(taxonomy: () => Promise<Taxonomy>): TaxonomyService['tagDimensions'] {
  return {
    name: 'tag-dimensions',
    filters: (q) => [flowTypeOf(q.flow_type)] as const,
    async ids([flowType]) {
      return (await taxonomy()).dimensions.filter((d) => appliesTo(d.flow_types, flowType)).map((d) => d.id);
    },
    items: async (ids) => pick((await taxonomy()).dimensionById, ids),
  };
}

function tagTypesSearchList(taxonomy: () => Promise<Taxonomy>): TaxonomyService['tagTypesSearch'] {
  return {
    name: 'tag-types',
    filters: (q) =>
      [
        searchOf(q.search, q.search_mode ?? 'starts_with'),
        q.dimension === undefined ? null : q.dimension.toLowerCase(),
        flowTypeOf(q.flow_type),
        q.terminal_only === true,
        q.tag_level ?? null,
      ] as const,
    async ids([search, dimension, flowType, terminalOnly, level]) {
      // Values are not searched: their parent's known_values lists them.
      return (await taxonomy()).tagTypes
        .filter(
          (t) =>
            !t.is_value &&
            matches(search, t.name, t.key) &&
            (dimension === null || t.dimension.key.toLowerCase() === dimension) &&
            appliesTo(t.flow_types, flowType) &&
            (!terminalOnly || t.terminal) &&
            (level === null || t.tag_level === level),
        )
        .map((t) => t.id);
    },
    items: async (ids) => pick((await taxonomy()).tagTypeById, ids),
  };
}

function tagTypeChildrenList(taxonomy: () => Promise<Taxonomy>): TaxonomyService['tagTypeChildren'] {
  return {
    name: 'tag-type-children',
    filters: (q) => [q.tag_type_id, q.include_values === true, flowTypeOf(q.flow_type)] as const,
    async ids([parent, includeValues, flowType]) {
      const children = (await taxonomy()).childrenOf.get(parent) ?? [];
      return children.filter((t) => (includeValues || !t.is_value) && appliesTo(t.flow_types, flowType)).map((t) => t.id);
    },
    items: async (ids) => pick((await taxonomy()).tagTypeById, ids),
  };
}

function subnationalRegionsList(regions: () => Promise<Regions>): TaxonomyService['subnationalRegions'] {
  return {
    name: 'subnational-regions',
    filters: (q) => [q.country_id, searchOf(q.search, 'contains')] as const,
    async ids([country, search]) {
      const table = await regions();
      if (!table.countries.has(country)) throw new ApiError('NOT_FOUND', `no country with country_id ${country}`);
      return table.items
        .filter((r) => r.country_id === country && matches(search, r.name, r.key, r.code))
        .map((r) => r.id);
    },
    items: async (ids) => pick((await regions()).byId, ids),
  };
}

async function loadRegions(repository: TaxonomyRepository): Promise<Regions> {
  const items = await repository.subnationalRegions();
  const countries = new Set(await repository.countryIds());
  return { items, byId: new Map(items.map((item) => [item.id, item])), countries };
}

async function loadTaxonomy(repository: TaxonomyRepository): Promise<Taxonomy> {
  const dimensionRows = await repository.tagDimensions();
  const rows = await repository.tagTypes();
  const rowById = new Map(rows.map((r) => [r.id, r]));
  const dimensionRef = new Map(dimensionRows.map((d) => [d.id, { id: d.id, key: d.key, name: d.name }]));
  const childRows = new Map<number, TagTypeRow[]>();
  for (const r of rows) if (r.parent_id !== null) childRows.set(r.parent_id, [...(childRows.get(r.parent_id) ?? []), r]);

  const tagTypes = rows.map((r): TagTypeItem => {
    // The import keeps the taxonomy a forest, so the walk up ends at the top of the dimension.
    const breadcrumbs: TagTypeItem['breadcrumbs'] = [];
    for (let up = r.parent_id === null ? undefined : rowById.get(r.parent_id); up !== undefined; up = up.parent_id === null ? undefined : rowById.get(up.parent_id)) {
      breadcrumbs.unshift({ id: up.id, key: up.key, name: up.name });
    }
    const children = childRows.get(r.id) ?? [];
    const values = children.filter((c) => c.is_value === 1);
    const groups = children.length > values.length;
    return {
      id: r.id,
      key: r.key,
      name: r.name,
      dimension: dimensionRef.get(r.dimension_id) ?? { id: r.dimension_id, key: '', name: '' },
      parent_id: r.parent_id,
      tag_level: breadcrumbs.length + 1,
      // Unsaid by the import: a tag type is terminal when it groups no other tag types.
      terminal: r.terminal === null ? !groups : r.terminal === 1,
      is_value: r.is_value === 1,
      has_children: groups,
      flow_types: flowTypesOf(r.flow_types),
      breadcrumbs,
      known_values: values.map((v) => ({ id: v.id, key: v.key, name: v.name })),
    };
  });
  const tagTypeById = new Map(tagTypes.map((t) => [t.id, t]));
  const childrenOf = new Map<number, TagTypeItem[]>();
  for (const t of tagTypes) if (t.parent_id !== null) childrenOf.set(t.parent_id, [...(childrenOf.get(t.parent_id) ?? []), t]);

  const dimensions = dimensionRows.map((d): TagDimensionItem => {
    const types = new Set(tagTypes.filter((t) => t.dimension.id === d.id).flatMap((t) => t.flow_types));
    return { id: d.id, key: d.key, name: d.name, flow_types: TAG_FLOW_TYPES.filter((type) => types.has(type)) };
  });
  return { dimensions, tagTypes, dimensionById: new Map(dimensions.map((d) => [d.id, d])), tagTypeById, childrenOf };
}

/** Stored comma-separated; null is every type. */
function flowTypesOf(stored: string | null): TagFlowType[] {
  if (stored === null) return [...TAG_FLOW_TYPES];
  const listed = new Set(stored.split(','));
  return TAG_FLOW_TYPES.filter((type) => listed.has(type));
}

function flowTypeOf(value: string | undefined): TagFlowType | null {
  return value === undefined ? null : (FLOW_TYPE_ALIASES[value] ?? null);
}

function appliesTo(flowTypes: readonly TagFlowType[], flowType: TagFlowType | null): boolean {
  return flowType === null || flowTypes.includes(flowType);
}

function pick<T>(byId: ReadonlyMap<number, T>, ids: readonly number[]): Map<number, T> {
  return new Map(ids.flatMap((id) => {
    const item = byId.get(id);
    return item === undefined ? [] : [[id, item] as const];
  }));
}
