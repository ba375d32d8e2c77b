import { type Static, Type } from 'typebox';
import { EVENT_STATUSES } from '../../shared/event-status.js';
import { CompetitionItem } from '../competitions/index.js';
import { GRADED_OUTCOMES, GradeNumbers, OutrightGradeNumbers } from '../../shared/settlement/grade-numbers.schema.js';
import { NOT_GRADABLE_REASONS } from '../../shared/settlement/grading.js';
import { SelectionId } from '../../shared/wire.js';

/**
 * The `data` of the rare kinds, event.updated and result.graded (decision 0312): what the
 * transaction that made the change writes to the outbox, then `sequence`, which the former adds
 * when it makes the delivery. The names are those of the API's own answers (the events lists, the
 * results by event), so a receiver reads a webhook as it reads the API.
 */

/** What of an event an event.updated says changed: a matchup's status, start or score, a competition's status, start or end. */
export const EVENT_CHANGES = ['status', 'start_time', 'score', 'end_time'] as const;
export type EventChange = (typeof EVENT_CHANGES)[number];

const Sequence = Type.Integer({ minimum: 1, description: "The delivery's place in its endpoint's sequence: 1, 2, 3… with no gap." });
const nullableInteger = (description: string) => Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description });
const nullableNumber = (description: string) => Type.Union([Type.Number(), Type.Null()], { description });

export const WebhookEvent = Type.Object(
  {
    id: Type.Integer({ description: 'Event id.' }),
    sport_id: Type.Integer({ description: 'Sport of the event (that of its league).' }),
    league_id: Type.Integer({ description: 'League the event belongs to.' }),
    status: Type.Enum(EVENT_STATUSES, { description: 'As the data feed now reports it: `scheduled`, `live`, `final` (the event has ended), `postponed` or `cancelled`.' }),
    start_time: Type.String({ format: 'date-time', description: 'Scheduled start, ISO 8601, UTC.' }),
    home_team_id: Type.Integer({ description: 'The home team (in tennis, the first-named player).' }),
    away_team_id: Type.Integer({ description: 'The away team.' }),
    home_score: nullableInteger("The home side's score as the feed last reported it; null when the feed has none."),
    away_score: nullableInteger("The away side's score; null exactly when home_score is."),
  },
  { title: 'WebhookEvent', additionalProperties: false, description: 'The event as it stands after the change, as the events lists show it (teams by id).' },
);

/**
 * A competition as GET /v1/competitions shows it, but for its league's key and its count of
 * participants. Sent only to an endpoint whose filters' `event_kinds` names `competition`
 * (decision 0331): a matchup's event keeps the shape above, and `kind` tells the two apart.
 */
export const WebhookCompetitionEvent = Type.Omit(CompetitionItem, ['league_key', 'participants'], {
  title: 'WebhookCompetitionEvent',
  additionalProperties: false,
  description: 'The competition as it stands after the change (docs/data.md#competitions).',
});

export const EventUpdatedData = Type.Object(
  {
    sequence: Sequence,
    event: Type.Union([WebhookEvent, WebhookCompetitionEvent], {
      description: "The event after the change: a matchup (WebhookEvent), or a competition (WebhookCompetitionEvent, with `kind`) for an endpoint whose filters' `event_kinds` names `competition`.",
    }),
    changed: Type.Array(Type.Enum(EVENT_CHANGES), {
      minItems: 1,
      uniqueItems: true,
      description: "What changed: `status`, `start_time`, `score` (either side's, a matchup's), `end_time` (a competition's).",
    }),
  },
  { title: 'EventUpdatedData', additionalProperties: false },
);
export type EventUpdatedData = Static<typeof EventUpdatedData>;

export const WebhookGrade = Type.Object(
  {
    odds_id: Type.Integer({ description: 'The odds row graded (its `id` in POST /v1/odds/upcoming-odds-by-event).' }),
    event_betting_market_position_id: SelectionId('The selection graded'),
    operator_id: Type.Integer({ description: 'The operator (sportsbook) that priced it.' }),
    betting_market_id: Type.Integer({ description: 'The betting market.' }),
    position: Type.String({ description: 'The selection, as the odds row names it.' }),
    line: nullableNumber("The row's line; null without one."),
    outcome: Type.Union([Type.Enum(GRADED_OUTCOMES), Type.Null()], {
      description:
        '`won`, `lost`, `push`, `void`, `half_won`, `half_lost`, and for a competition\'s row `dead_heat` (sent only to an endpoint whose filters\' `event_kinds` names `competition`); ' +
        'null when the row cannot be graded, and `reason` says why.',
    }),
    reason: Type.Union([Type.Enum(NOT_GRADABLE_REASONS), Type.Null()], { description: 'Why there is no outcome; null with one.' }),
    rule: Type.Union([Type.String(), Type.Null()], { description: "The settlement rule applied (the market's); null when the market has none." }),
    numbers: Type.Union([GradeNumbers, OutrightGradeNumbers, Type.Null()], { description: "The numbers used (a competition's: OutrightGradeNumbers); null without an outcome." }),
    closing_price: nullableNumber("The row's last decimal price before the event started; null when it had none."),
    closing_line: nullableNumber("The row's line at that moment; null without one."),
    graded_at: Type.String({ format: 'date-time', description: 'When this grade was made.' }),
  },
  { title: 'WebhookGrade', additionalProperties: false, description: 'A grade as POST /v1/results/by-event shows it, with its operator and market by id.' },
);

export const ResultGradedData = Type.Object(
  {
    sequence: Sequence,
    event_id: Type.Integer({ description: 'The event graded.' }),
    grades: Type.Array(WebhookGrade, { minItems: 1, description: 'The grades this grading made: each new grade, or one that replaced an earlier grade of its row; by odds id.' }),
    regrade: Type.Boolean({ description: 'True when one of these grades replaced an earlier grade (a correction of the results, a late closing price).' }),
  },
  { title: 'ResultGradedData', additionalProperties: false },
);
export type ResultGradedData = Static<typeof ResultGradedData>;

/** What a producer writes: the data without its sequence, which the former gives it. */
export type EventUpdatedRecord = Omit<EventUpdatedData, 'sequence'>;
export type WebhookCompetitionEvent = Static<typeof WebhookCompetitionEvent>;
export type WebhookEvent = Static<typeof WebhookEvent>;
export type ResultGradedRecord = Omit<ResultGradedData, 'sequence'>;
export type WebhookGrade = Static<typeof WebhookGrade>;
