import { type Static, Type } from 'typebox';
import { PageOf } from '../../platform/pagination.js';
import { Id, NamedRef } from '../../shared/wire.js';
import { keyedProperties, listQuery, record } from './schema-parts.js';
import { SEARCH_MODES } from './search.js';

/** The flow types a tag applies to, in our vocabulary (answers never use Odditt's). */
export const TAG_FLOW_TYPES = ['fact', 'fun', 'plain'] as const;
export type TagFlowType = (typeof TAG_FLOW_TYPES)[number];

/**
 * `flow_type` as a filter: ours, or Odditt's names for the same types (a parlay of fact flows is
 * a fact flow here, and `plain_flow_parlay` is our plain flow, which only comes as a parlay).
 */
export const FLOW_TYPE_ALIASES: Readonly<Record<string, TagFlowType>> = {
  fact: 'fact',
  fun: 'fun',
  plain: 'plain',
  fact_flow: 'fact',
  fun_flow: 'fun',
  fact_flow_parlay: 'fact',
  fun_flow_parlay: 'fun',
  plain_flow_parlay: 'plain',
};


const FlowTypes = Type.Array(Type.Enum(TAG_FLOW_TYPES), { description: 'The flow types whose flows carry tags of this kind (`fact`, `fun`, `plain`).' });

export const TagDimension = record('TagDimension', {
  ...keyedProperties({
    id: 'Dimension id.',
    key: 'Dimension key, e.g. `situation`; the `dimension` filter of the tag-type search takes it.',
    name: 'Display name, e.g. `Situation`.',
  }),
  flow_types: FlowTypes,
});

export const TagType = Type.Object(
  {
    ...keyedProperties({
      id: 'Tag type id; POST /v1/trends/flows filters by it (`tag_type_ids`).',
      key: 'Key, unique among its siblings (not across the taxonomy: see breadcrumbs).',
      name: 'Display name, e.g. `Home`. Several tag types may share one.',
    }),
    dimension: NamedRef('The dimension the tag type belongs to.'),
    parent_id: Type.Union([Id(), Type.Null()], { description: 'The parent tag type; null at the top of its dimension.' }),
    tag_level: Type.Integer({ minimum: 1, description: 'Depth in the hierarchy: 1 at the top of a dimension, 2 for its children, and so on.' }),
    terminal: Type.Boolean({ description: 'A tag flows carry and can be filtered by; the others group tag types.' }),
    is_value: Type.Boolean({ description: "A value-level leaf, listed in its parent's `known_values`." }),
    has_children: Type.Boolean({ description: 'Whether GET /v1/references/tag-types/{id}/children lists anything without `include_values`.' }),
    flow_types: FlowTypes,
    breadcrumbs: Type.Array(NamedRef('An ancestor.'), {
      description: 'The ancestors from the top of the dimension down to the parent: they tell apart tag types of the same name (`Venue › Home`, `Side › Home`).',
    }),
    known_values: Type.Array(NamedRef('A value.'), { description: "The tag type's value-level children, in id order; empty when it has none." }),
  },
  // Described as a whole: the children page shows one as its `parent`.
  { title: 'TagType', additionalProperties: false, description: 'A tag type of the flow tag taxonomy (for a children page, the one whose children it lists).' },
);

export const SubnationalRegion = record('SubnationalRegion', {
  ...keyedProperties({ id: 'Region id.', key: 'Region key, e.g. `new-jersey`.', name: 'Region name, e.g. `New Jersey`.' }),
  code: Type.String({ description: 'Short code, e.g. `NJ` (ISO 3166-2 without the country prefix).' }),
  country_id: Id('The country (GET /v1/references/countries).'),
});

export type TagDimensionItem = Static<typeof TagDimension>;
export type TagTypeItem = Static<typeof TagType>;
export type SubnationalRegionItem = Static<typeof SubnationalRegion>;

export const TagDimensionPage = PageOf(TagDimension, 'TagDimensionPage');
export const TagTypePage = PageOf(TagType, 'TagTypePage');
export const SubnationalRegionPage = PageOf(SubnationalRegion, 'SubnationalRegionPage');

/** A page of children, with the tag type they are the children of. */
export const TagChildrenPage = record('TagChildrenPage', { parent: TagType, ...TagTypePage.properties });

// ---- queries ----

const flowType = Type.Optional(
  Type.Enum(Object.keys(FLOW_TYPE_ALIASES), {
    description:
      'Only what applies to flows of this type: ours (`fact`, `fun`, `plain`) or Odditt\'s (`fact_flow`, `fun_flow`, `fact_flow_parlay`, `fun_flow_parlay`, `plain_flow_parlay`, read as fact, fun and plain).',
  }),
);

export const TagDimensionsQuery = listQuery('TagDimensionsQuery', { flow_type: flowType });

export const TagTypesSearchQuery = listQuery('TagTypesSearchQuery', {
  search: Type.Optional(Type.String({ maxLength: 100, description: 'Matched case-insensitively against the name and the key, as search_mode says.' })),
  search_mode: Type.Optional(
    Type.Enum(SEARCH_MODES, {
      default: 'starts_with',
      description: '`starts_with` (the default here): the name or key begins with the search; `contains`: includes it anywhere; `exact`: is it.',
    }),
  ),
  dimension: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Only tag types of the dimension with this key (e.g. `situation`); an unknown key lists nothing.' })),
  flow_type: flowType,
  terminal_only: Type.Optional(Type.Boolean({ default: false, description: 'true: only terminal tag types (those flows carry and are filtered by).' })),
  tag_level: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, description: 'Only tag types at this depth (1: the top of a dimension).' })),
});

export const TagChildrenParams = record('TagChildrenParams', {
  // 101 is Venue, a tag type with children, in every demo dataset (the example of /docs).
  tag_type_id: { ...Id('The tag type to drill into.'), example: 101 },
});

export const TagChildrenQuery = listQuery('TagChildrenQuery', {
  include_values: Type.Optional(
    Type.Boolean({ default: false, description: "true: value-level children are listed too; by default they are not, the parent's `known_values` holds them." }),
  ),
  flow_type: flowType,
});

export const SubnationalRegionsQuery = listQuery('SubnationalRegionsQuery', {
  // 8 is the United States in every demo dataset (the example of /docs).
  country_id: { ...Id('The country whose regions to list (required; an unknown id is 404).'), example: 8 },
  search: Type.Optional(Type.String({ maxLength: 100, description: 'Case-insensitive substring of the name, the key or the code.' })),
});

export type TagDimensionsQuery = Static<typeof TagDimensionsQuery>;
export type TagTypesSearchQuery = Static<typeof TagTypesSearchQuery>;
export type TagChildrenQuery = Static<typeof TagChildrenQuery>;
export type SubnationalRegionsQuery = Static<typeof SubnationalRegionsQuery>;
