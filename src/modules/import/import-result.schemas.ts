import { type Static, Type } from 'typebox';

// What an import answers: the rows it wrote, what its aliases released from the review queue, the grading that followed.

const count = (array: string) => Type.Optional(Type.Integer({ minimum: 0, description: `${array} inserted or updated.` }));

/** What rows of a source wrote (the source importer's, and the review queue's rows a dataset's aliases released). */
export const SourceRowsWritten = Type.Object(
  {
    events: Type.Integer({ minimum: 0, description: 'Events written (made, or matched and updated).' }),
    odds: Type.Integer({ minimum: 0, description: 'Price points applied (each a history entry when it changed the price).' }),
    results: Type.Integer({ minimum: 0, description: 'Events whose status or score the rows carried.' }),
  },
  { additionalProperties: false, description: 'What the matched rows wrote.' },
);

/** What a dataset's aliases released from the review queue: the rows that waited on their names, imported with them. */
export const QueueReleased = Type.Object(
  {
    imported: SourceRowsWritten,
    queued: Type.Integer({ minimum: 0, description: "Rows of the aliases' sources still waiting (GET /admin/v1/mapping/unmatched)." }),
  },
  { additionalProperties: false, description: 'With `aliases`: the rows of the review queue that waited on those names, imported in the same transaction.' },
);
export type QueueReleased = Static<typeof QueueReleased>;

export const ImportResult = Type.Object(
  {
    upserted: Type.Object(
      {
        sports: count('Sports'),
        leagues: count('Leagues'),
        teams: count('Teams'),
        players: count('Players'),
        countries: count('Countries'),
        operators: count('Operators'),
        betting_market_categories: count('Betting market categories'),
        betting_market_positions: count('Betting market positions'),
        betting_markets: count('Betting markets'),
        event_periods: count('Event periods'),
        player_statistics: count('Player statistics'),
        subnational_regions: count('Subnational regions'),
        tag_dimensions: count('Tag dimensions'),
        tag_types: count('Tag types'),
        events: count('Events'),
        competitions: count('Competitions'),
        competition_participants: count('Competition participants'),
        odds: count('Odds'),
        flows: count('Flows'),
        aliases: count('Aliases'),
        price_updates: Type.Optional(Type.Integer({ minimum: 0, description: 'Price updates applied.' })),
      },
      { additionalProperties: false, description: 'Items inserted or updated, per array of the dataset (only the arrays sent).' },
    ),
    released: Type.Optional(QueueReleased),
    graded: Type.Optional(
      Type.Object(
        {
          events: Type.Integer({ minimum: 0, description: 'Events whose odds were graded: those of the dataset that ended (or were graded before).' }),
          grades: Type.Integer({ minimum: 0, description: 'Grades written: first grades, and new grades that superseded others (docs/data.md#results-and-grading).' }),
        },
        { additionalProperties: false, description: 'The grading that followed the import, once it committed.' },
      ),
    ),
    warnings: Type.Optional(
      Type.Array(
        Type.Object(
          {
            flow_id: Type.Integer({ description: 'The flow.' }),
            message: Type.String({ description: 'What disagreed, in words.' }),
            imported: Type.Object({ hits: Type.Integer({ description: 'Hits as imported.' }), total: Type.Integer({ description: 'Total as imported.' }) }, { additionalProperties: false, description: 'The figures the dataset gave.' }),
            computed: Type.Object({ hits: Type.Integer({ description: 'Hits in the graded results.' }), total: Type.Integer({ description: 'Games counted.' }) }, { additionalProperties: false, description: 'The figures the graded results give; the flow keeps these.' }),
          },
          { additionalProperties: false },
        ),
        { description: 'Flows of the dataset whose hits or total disagree with the graded results they are computed from (docs/data.md#computed-trends): accepted, with `disagrees: true`.' },
      ),
    ),
  },
  { title: 'ImportResult', additionalProperties: false },
);
export type ImportResult = Static<typeof ImportResult>;
