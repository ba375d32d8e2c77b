/** The outside formats the source importer reads, each a source of its own in `external_ids` and in the aliases. */
export const SOURCES = ['football-data', 'the-odds-api'] as const;
export type SourceName = (typeof SOURCES)[number];

/** The kinds of record a source's name may be bound to by an alias. */
export const ALIAS_TYPES = ['sport', 'league', 'team', 'operator'] as const;
export type AliasType = (typeof ALIAS_TYPES)[number];

/** The kinds of record a source keeps its own key of (decision 0295). */
export const IDENTITY_TYPES = ['sport', 'league', 'team', 'event', 'operator'] as const;
export type IdentityType = (typeof IDENTITY_TYPES)[number];
