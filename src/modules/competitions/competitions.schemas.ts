import { type Static, Type } from 'typebox';
import { COMPETITION_TYPES, PARTICIPANT_TYPES } from '../../platform/db/schema.js';
import { FINISH_STATUSES } from '../../shared/settlement/outrights.js';
import { PageOf, pagingProperties } from '../../platform/pagination.js';
import { EVENT_STATUSES } from '../../shared/event-status.js';
import { Id, TeamRef } from '../../shared/wire.js';

export const COMPETITIONS_MAX_PAGE_SIZE = 100;
/** A golf field is about 150: two pages at most. */
export const PARTICIPANTS_MAX_PAGE_SIZE = 100;

/** A competition as its list and the events lists (with `event_kinds`) show it (docs/data.md#competitions). */
export const CompetitionItem = Type.Object(
  {
    id: Type.Integer({ description: 'Event id of the competition: its odds, price history and results are an event\'s.' }),
    kind: Type.Literal('competition', { description: 'The event\'s kind: always `competition` here (a matchup has home and away teams instead).' }),
    sport_id: Type.Integer({ description: 'Sport (that of its league).' }),
    league_id: Type.Integer({ description: 'League: the tour, the series, the league a futures market is about.' }),
    league_key: Type.String({ description: "The league's key." }),
    name: Type.String({ description: 'Display name, e.g. `The Open Championship 2026`.' }),
    type: Type.Enum(COMPETITION_TYPES, { description: '`tournament`, `race` or `futures` (a market over a season).' }),
    participant_type: Type.Enum(PARTICIPANT_TYPES, { description: 'What its participants are: `team` or `player`.' }),
    start_time: Type.String({ format: 'date-time', description: 'Scheduled start, ISO 8601, UTC.' }),
    end_time: Type.String({ format: 'date-time', description: 'Scheduled end (the last round, the season\'s end), ISO 8601, UTC.' }),
    status: Type.Enum(EVENT_STATUSES, { description: 'As the feed last reported it (docs/data.md#events); `final` once its results are.' }),
    participants: Type.Integer({ minimum: 0, description: 'How many participants it has (GET /v1/competitions/{event_id}/participants).' }),
  },
  { title: 'Competition', additionalProperties: false },
);
export type CompetitionItem = Static<typeof CompetitionItem>;

export const CompetitionsQuery = Type.Object(
  {
    sport_id: Type.Optional(Id('Only competitions of this sport. Wins over sport_key.')),
    sport_key: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Only competitions of the sport with this key, e.g. `golf`.' })),
    league_id: Type.Optional(Id('Only competitions of this league. Wins over league_key.')),
    league_key: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Only competitions of this league: plain or qualified.' })),
    type: Type.Optional(Type.Enum(COMPETITION_TYPES, { description: 'Only competitions of this type: `tournament`, `race` or `futures`.' })),
    from: Type.Optional(Type.String({ format: 'date-time', description: 'Only competitions that end at or after this instant (ISO 8601 with a time zone).' })),
    to: Type.Optional(Type.String({ format: 'date-time', description: 'Only competitions that start before this instant.' })),
    ...pagingProperties(COMPETITIONS_MAX_PAGE_SIZE),
  },
  { additionalProperties: false },
);
export type CompetitionsQuery = Static<typeof CompetitionsQuery>;

export const CompetitionsPage = PageOf(CompetitionItem, 'CompetitionsPage');

const PlayerRef = Type.Object(
  { id: Type.Integer({ description: 'Player id (GET /v1/references/players).' }), key: Type.String({ description: 'Player key.' }), name: Type.String({ description: 'Player name.' }) },
  { additionalProperties: false, description: 'The player it is; null for a team.' },
);

export const ParticipantItem = Type.Object(
  {
    id: Type.Integer({ description: 'Participant id: what a competition\'s odds rows name as `participant_id`.' }),
    name: Type.String({ description: 'Its team\'s or player\'s name.' }),
    team: Type.Union([TeamRef('The team it is.'), Type.Null()], { description: 'The team it is; null for a player.' }),
    player: Type.Union([PlayerRef, Type.Null()], { description: 'The player it is; null for a team.' }),
    result: Type.Union(
      [
        Type.Object(
          {
            status: Type.Enum(FINISH_STATUSES, { description: '`finished`, `withdrawn`, `disqualified` or `non_starter`.' }),
            position: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], { description: 'Its finishing position, shared by a tie (T5 is 5); null when it did not finish.' }),
            tied: Type.Boolean({ description: 'Whether another participant finished at the same position.' }),
          },
          { additionalProperties: false },
        ),
        Type.Null(),
      ],
      { description: 'Its finishing result; null until the feed sends one.' },
    ),
  },
  { title: 'CompetitionParticipant', additionalProperties: false },
);
export type ParticipantItem = Static<typeof ParticipantItem>;

export const ParticipantsParams = Type.Object({ event_id: Id('The competition (its event id).') }, { additionalProperties: false });
export type ParticipantsParams = Static<typeof ParticipantsParams>;

export const ParticipantsQuery = Type.Object({ ...pagingProperties(PARTICIPANTS_MAX_PAGE_SIZE) }, { additionalProperties: false });
export type ParticipantsQuery = Static<typeof ParticipantsQuery>;

export const ParticipantsPage = PageOf(ParticipantItem, 'CompetitionParticipantsPage');
