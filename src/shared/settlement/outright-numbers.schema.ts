import { Type } from 'typebox';
import { FINISH_STATUSES } from './outrights.js';

/**
 * The numbers an outright grade used, as the wire shows them (the grader's OutrightNumbers, stored
 * as JSON with the grade), beside the matchups' GradeNumbers.
 */

const Status = Type.Union([...FINISH_STATUSES.map((s) => Type.Literal(s)), Type.Null()], {
  description: '`finished`, `withdrawn` (started, did not finish), `disqualified` or `non_starter`; null when the results do not name the participant (it took part and was not placed).',
});
const Position = Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], { description: 'The finishing position, shared by those tied; null when there is none.' });
const Count = (description: string) => Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description });

export const OutrightGradeNumbers = Type.Object(
  {
    position: Position,
    status: Status,
    places: Type.Integer({ minimum: 1, description: 'The places that pay: 1 for a winner and a matchup, N for a top-N, 3 for a podium.' }),
    ahead: Count('How many finished ahead of the participant (in the field, or among the matchup\'s participants); null when it had no place to compare.'),
    tied: Count('How many share its place, itself included; null as `ahead`.'),
    places_left: Count('How many paying places are left to those tied: a dead heat pays places_left ÷ tied of the stake at the price. Null as `ahead`.'),
    rivals: Type.Union(
      [
        Type.Array(
          Type.Object({ participant: Type.String(), position: Position, status: Status }, { additionalProperties: false }),
          { description: 'A matchup\'s other participants.' },
        ),
        Type.Null(),
      ],
      { description: 'A matchup\'s other participants, in the order given; null for the other markets.' },
    ),
  },
  { additionalProperties: false, description: 'The numbers an outright grade used.' },
);
