import { Type } from 'typebox';
import { FINISH_STATUSES } from './outrights.js';
import { OUTCOMES } from './grading.js';

/**
 * The numbers a grade used, as the wire shows them: the results answers and the result.graded
 * webhook carry the same object (the grader's GradeNumbers, stored as JSON with the grade).
 */

const nullable = <T extends ReturnType<typeof Type.Number>>(schema: T, description: string) => Type.Union([schema, Type.Null()], { description });

export const GradeNumbers = Type.Object(
  {
    period: Type.String({ description: 'The key of the period the grade settled on; `event` is the event\'s final score, overtime included.' }),
    home: nullable(Type.Number(), "The home side's score in that period."),
    away: nullable(Type.Number(), "The away side's score in that period."),
    value: nullable(
      Type.Number(),
      "The quantity the rule compared: the side's lead (moneyline, spread), the home side's lead (1x2), the total, the team's score, the player's statistic, or the count (yes/no).",
    ),
    line: nullable(Type.Number(), 'The line compared with; null for rules without one.'),
    halves: Type.Union([Type.Array(Type.Number(), { minItems: 2, maxItems: 2 }), Type.Null()], {
      description: 'A quarter line\'s two half-stake lines, lower first (−0.25 → [−0.5, 0]); null otherwise.',
    }),
  },
  { additionalProperties: false, description: 'The numbers the grade used.' },
);

/** The outcomes a grade may have: a matchup's (OUTCOMES), and a competition's dead heat (docs/data.md#competitions). */
export const GRADED_OUTCOMES = [...OUTCOMES, 'dead_heat'] as const;

const OUTRIGHT_OUTCOMES = ['won', 'lost', 'void', 'dead_heat'] as const;

const integerOrNull = (description: string) => Type.Union([Type.Integer(), Type.Null()], { description });

/** The numbers a competition's grade used (docs/data.md#competitions): the participant's finish, the places paid, the share of a dead heat. */
export const OutrightGradeNumbers = Type.Object(
  {
    participant_id: Type.Integer({ description: 'The participant backed (GET /v1/competitions/{event_id}/participants).' }),
    status: Type.Union([Type.Enum(FINISH_STATUSES), Type.Null()], { description: 'How its competition ended for it: `finished`, `withdrawn`, `disqualified`, `non_starter`.' }),
    position: integerOrNull('Its finishing position; null when it did not finish.'),
    places: integerOrNull('The places the market pays (1 for a winner); null for a matchup between participants.'),
    rival_ids: Type.Union([Type.Array(Type.Integer()), Type.Null()], { description: 'A matchup\'s rivals; null otherwise.' }),
    tied: Type.Integer({ minimum: 0, description: 'How many finished level with it at its position (itself included), or tied for the best of a matchup.' }),
    factor: Type.Number({ minimum: 0, maximum: 1, description: 'The share of the stake paid at the price: 1 won, 0 lost or void, k/m in a dead heat.' }),
    each_way: Type.Union(
      [
        Type.Object(
          {
            outcome: Type.Enum(OUTRIGHT_OUTCOMES, { description: 'The place part\'s outcome.' }),
            factor: Type.Number({ minimum: 0, maximum: 1, description: 'The share of the place part\'s stake paid at the place price.' }),
            places: Type.Integer({ description: 'The places the book pays.' }),
            fraction: Type.Number({ description: 'The fraction of the odds a place pays.' }),
            place_price: Type.Number({ description: 'The place part\'s decimal price: 1 + (price − 1) × fraction.' }),
          },
          { additionalProperties: false, description: 'The place part of an each-way price; the grade\'s own outcome is the win part\'s.' },
        ),
        Type.Null(),
      ],
      { description: 'The place part of an each-way price; null without each-way terms.' },
    ),
  },
  { title: 'OutrightGradeNumbers', additionalProperties: false, description: "The numbers a competition's grade used." },
);
