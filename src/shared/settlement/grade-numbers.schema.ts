import { Type } from 'typebox';

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
