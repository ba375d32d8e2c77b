import { type Static, Type } from 'typebox';
import { COMPETITION_TYPES, PARTICIPANT_TYPES } from '../../platform/db/schema.js';
import { FINISH_STATUSES } from '../../shared/settlement/outrights.js';
import { EVENT_STATUSES } from '../../shared/event-status.js';
import { Id, Label } from '../../shared/wire.js';

/**
 * The native format of competitions (docs/operations.md#competitions): the competitions, their
 * participants with their finishing results, and what an odds row of a many-outcome market adds.
 */

/** The most participants one competition's results name; a golf field is about 150. */
export const MAX_PARTICIPANT_POSITION = 10_000;

export const CompetitionItem = Type.Object(
  {
    id: Id('Competition id: an event id (no matchup event may have it), which its odds name as `event_id`.'),
    league_id: Id('The league (its sport is derived from it): the tour, the series, the league a futures market is about.'),
    name: Label(200, 'Display name, e.g. `The Open Championship 2026`, `Premier League 2026/27 winner`.'),
    type: Type.Enum(COMPETITION_TYPES, { description: '`tournament`, `race` or `futures` (a market over a season: league winner, top scorer, MVP).' }),
    participant_type: Type.Enum(PARTICIPANT_TYPES, { description: 'What its participants are: `team` or `player`.' }),
    start_time: Type.String({ format: 'date-time', description: 'Scheduled start, ISO 8601 with a time zone.' }),
    end_time: Type.String({ format: 'date-time', description: 'Scheduled end (the last round, the season\'s end), at or after the start.' }),
    status: Type.Optional(
      Type.Unsafe<(typeof EVENT_STATUSES)[number] | null>({
        type: ['string', 'null'],
        enum: [...EVENT_STATUSES, null],
        description: 'As for an event: `scheduled` (the default), `live`, `final` (its participants\' results are final: it is graded), `postponed`, `cancelled` (every bet void).',
      }),
    ),
  },
  { title: 'ImportCompetition', additionalProperties: false },
);

const ParticipantResult = Type.Object(
  {
    status: Type.Enum(FINISH_STATUSES, { description: '`finished`, `withdrawn`, `disqualified` or `non_starter` (docs/data.md#competitions).' }),
    position: Type.Optional(
      Type.Union([Type.Integer({ minimum: 1, maximum: MAX_PARTICIPANT_POSITION }), Type.Null()], {
        description: 'The finishing position, required with `finished` and refused otherwise; participants who tie share one (two players T5 are both 5).',
      }),
    ),
  },
  { title: 'ImportParticipantResult', additionalProperties: false },
);

export const CompetitionParticipantItem = Type.Object(
  {
    id: Id('Participant id, unique across competitions.'),
    competition_id: Id('The competition.'),
    team_id: Type.Optional(Type.Union([Id(), Type.Null()], { description: 'The team it is, for a competition of teams.' })),
    player_id: Type.Optional(Type.Union([Id(), Type.Null()], { description: 'The player it is, for a competition of players.' })),
    result: Type.Optional(
      Type.Union([ParticipantResult, Type.Null()], {
        description: 'Its finishing result; absent or null: none yet. A participant row says its whole result each time it is sent.',
      }),
    ),
  },
  { title: 'ImportCompetitionParticipant', additionalProperties: false },
);
export type CompetitionParticipantItem = Static<typeof CompetitionParticipantItem>;

/** What an odds row of a competition adds to a matchup's (spread into the odds item). */
export const outrightOddsFields = {
  participant_id: Type.Optional(
    Type.Union([Id(), Type.Null()], { description: "The competition participant the price backs: required on a competition's odds, refused on a matchup's." }),
  ),
  rival_participant_ids: Type.Optional(
    Type.Array(Id('A rival: a participant of the same competition.'), {
      minItems: 1,
      maxItems: 2,
      uniqueItems: true,
      description: 'A matchup between participants (a market settled by `participant_matchup`): the one or two rivals the participant must finish ahead of.',
    }),
  ),
  each_way: Type.Optional(
    Type.Union(
      [
        Type.Object(
          {
            fraction: Type.Number({ exclusiveMinimum: 0, maximum: 1, description: 'The fraction of the win odds paid on a place, e.g. 0.2 for 1/5.' }),
            places: Type.Integer({ minimum: 1, maximum: 100, description: 'The places the place part pays.' }),
          },
          { title: 'ImportEachWay', additionalProperties: false },
        ),
        Type.Null(),
      ],
      { description: 'The book\'s each-way terms for this price, on a `winner` market: a win part at the price and a place part at 1 + (price − 1) × fraction.' },
    ),
  ),
};
