import { Type } from 'typebox';
import { ALIAS_TYPES, IDENTITY_TYPES, SOURCES } from '../../shared/sources.js';
import { Id, Label, NO_NUL } from '../../shared/wire.js';
import { SourceRowsWritten } from '../import/index.js';

const Source = Type.Enum(SOURCES, { description: '`football-data` or `the-odds-api`.' });
const SkipInvalid = Type.Optional(Type.Boolean({ default: false, description: 'true: import the valid rows and list the others in `skipped`; false: a row with a problem refuses the whole file (422 naming each).' }));

export const FootballDataQuery = Type.Object({ skip_invalid: SkipInvalid }, { additionalProperties: false });

export const TheOddsApiQuery = Type.Object(
  {
    skip_invalid: SkipInvalid,
    odds_format: Type.Optional(Type.Enum(['decimal', 'american'] as const, { default: 'decimal', description: 'The `oddsFormat` the answer was fetched with.' })),
    kind: Type.Optional(Type.Enum(['odds', 'snapshot', 'scores'] as const, { description: 'What the body is: an /odds answer (default), a historical snapshot, or a /scores answer.' })),
  },
  { additionalProperties: false },
);

const Problem = Type.Object(
  { row: Type.Integer({ description: 'The CSV line (the header is line 1), or the index + 1 of the item.' }), column: Type.String({ description: 'The column or field path.' }), message: Type.String({ description: 'What is wrong.' }) },
  { additionalProperties: false },
);

export const SourceImportAnswer = Type.Object(
  {
    imported: SourceRowsWritten,
    queued: Type.Integer({ minimum: 0, description: 'Rows waiting in the review queue (GET /admin/v1/mapping/unmatched) for a name no rule matched.' }),
    skipped: Type.Array(Problem, { description: 'With skip_invalid, the rows left out and why.' }),
  },
  { title: 'SourceImportResult', additionalProperties: false },
);

export const ExternalIdsQuery = Type.Object(
  {
    source: Type.Optional(Source),
    entity_type: Type.Optional(Type.Enum(IDENTITY_TYPES, { description: '`sport`, `league`, `team`, `event` or `operator`.' })),
    entity_id: Type.Optional(Id('Our record: its keys in every source.')),
    external_id: Type.Optional(Type.String({ minLength: 1, maxLength: 500, ...NO_NUL, description: "The source's key: the record it names (with `source`)." })),
  },
  { additionalProperties: false },
);

const ExternalId = Type.Object(
  {
    source: Source,
    entity_type: Type.String({ description: 'The kind of record.' }),
    external_id: Type.String({ description: "The source's key of the record." }),
    entity_id: Type.Integer({ description: 'Our id of the record.' }),
    created: Type.Boolean({ description: 'true: the source made the record (only it may rewrite it); false: its key was matched to a record already there.' }),
  },
  { additionalProperties: false },
);
export const ExternalIdList = Type.Object({ data: Type.Array(ExternalId, { description: 'At most 1,000.' }) }, { title: 'ExternalIdList', additionalProperties: false });

export const AliasesQuery = Type.Object(
  { source: Type.Optional(Source), entity_type: Type.Optional(Type.Enum(ALIAS_TYPES, { description: '`sport`, `league`, `team` or `operator`.' })) },
  { additionalProperties: false },
);

const Alias = Type.Object(
  {
    source: Source,
    entity_type: Type.String({ description: 'The kind of record.' }),
    name: Type.String({ description: 'The name as given.' }),
    name_key: Type.String({ description: 'The name normalised: what rows are compared by.' }),
    scope_id: Type.Integer({ description: "Where the name holds: a team's league, a league's sport; 0 for sports and operators." }),
    entity_id: Type.Integer({ description: 'Our record.' }),
  },
  { additionalProperties: false },
);
export const AliasList = Type.Object({ data: Type.Array(Alias, { description: 'At most 1,000.' }) }, { title: 'AliasList', additionalProperties: false });

export const AliasBody = Type.Object(
  {
    source: Source,
    name: Label(200, "The source's name: a team's name, a league's or a book's code."),
    entity_type: Type.Enum(ALIAS_TYPES, { description: '`sport`, `league`, `team` or `operator`.' }),
    entity_id: Type.Optional(Id('Our record the name stands for.')),
    create: Type.Optional(Type.Boolean({ description: 'true (instead of entity_id): make a new record of the name waiting in the queue, in the scope it waits in.' })),
  },
  { title: 'AliasInput', additionalProperties: false },
);

export const AliasAnswer = Type.Object(
  {
    entity_id: Type.Union([Type.Integer(), Type.Null()], { description: 'The record the name now stands for.' }),
    imported: SourceImportAnswer.properties.imported,
    queued: Type.Integer({ minimum: 0, description: 'Rows of the source still waiting.' }),
  },
  { title: 'AliasResult', additionalProperties: false },
);

export const UnmatchedQuery = Type.Object({ source: Type.Optional(Source) }, { additionalProperties: false });

export const UnmatchedList = Type.Object(
  {
    data: Type.Array(
      Type.Object(
        {
          source: Source,
          entity_type: Type.Enum(['league', 'team'] as const, { description: 'What the name is of.' }),
          name: Type.String({ description: 'The name as the source gives it.' }),
          scope_id: Type.Integer({ description: "Where it was looked for: a team's league, a league's sport." }),
          rows: Type.Integer({ minimum: 1, description: 'Rows waiting on it.' }),
          candidates: Type.Array(
            Type.Object(
              { entity_id: Type.Integer({ description: 'Our record.' }), name: Type.String({ description: 'Its name.' }), score: Type.Number({ minimum: 0, maximum: 1, description: 'How alike the names are (0–1).' }) },
              { additionalProperties: false },
            ),
            { description: 'The records of the scope, most alike first (at most 5).' },
          ),
        },
        { additionalProperties: false },
      ),
      { description: 'One entry per name waiting (by source, kind, scope and normalised name), in the order their first row was queued.' },
    ),
  },
  { title: 'UnmatchedList', additionalProperties: false },
);
