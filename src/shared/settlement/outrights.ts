/**
 * Grading a many-outcome market from a competition's finishing results (docs/data.md#competitions):
 * a finish within N places with dead heats, each-way as a win part and a place part, and matchups
 * between participants. Pure: the caller passes every participant's finish.
 *
 * The contract is shared with the de-vig and grading work of the same session (decision 0324 writes
 * the full version): this minimal implementation holds to its signatures, so the integrator can take
 * that file over this one without changing a caller.
 */

export type FinishStatus = 'finished' | 'withdrawn' | 'disqualified' | 'non_starter';

/** One participant's finish: its position when it finished (participants who tie share one), else null. */
export interface Finish {
  participant: string;
  position: number | null;
  status: FinishStatus;
}

export interface OutrightNumbers {
  /** The participant's finishing position; null when it did not finish. */
  position: number | null;
  status: FinishStatus | null;
  /** The places paid (1 for a winner); null for a matchup. */
  places: number | null;
  /** How many finished at the participant's position (itself included), or tied for the best of a matchup. */
  tied: number;
}

export interface OutrightGrade {
  outcome: 'won' | 'lost' | 'void' | 'dead_heat';
  /** The share of the stake paid at the price: 1 won, 0 lost, k/m in a dead heat; a void returns the stake (0 here). */
  factor: number;
  numbers: OutrightNumbers;
}

const graded = (outcome: OutrightGrade['outcome'], factor: number, numbers: OutrightNumbers): OutrightGrade => ({ outcome, factor, numbers });

/**
 * A finish within `places` (winner 1, top-N N, podium 3). A non-starter is void; one that withdrew
 * or was disqualified lost. When more participants tie at a position than places remain from it, the
 * stake is divided by the number tied and multiplied by the places left (the dead-heat rule).
 */
export function gradePlaces(participant: string, places: number, finishes: readonly Finish[]): OutrightGrade {
  const own = finishes.find((f) => f.participant === participant);
  const position = own?.position ?? null;
  const status = own?.status ?? null;
  const base: OutrightNumbers = { position, status, places, tied: 0 };
  if (own === undefined || status === 'non_starter') return graded('void', 0, base);
  if (status !== 'finished' || position === null) return graded('lost', 0, base);
  const tied = finishes.filter((f) => f.status === 'finished' && f.position === position).length;
  const numbers = { ...base, tied };
  if (position > places) return graded('lost', 0, numbers);
  const left = places - position + 1;
  return tied <= left ? graded('won', 1, numbers) : graded('dead_heat', left / tied, numbers);
}

/** An each-way bet: the win part graded as a winner at the price, the place part within `places` at the place price. */
export function gradeEachWay(
  participant: string,
  places: number,
  placeFraction: number,
  price: number,
  finishes: readonly Finish[],
): { win: OutrightGrade; place: OutrightGrade & { place_price: number } } {
  return { win: gradePlaces(participant, 1, finishes), place: { ...gradePlaces(participant, places, finishes), place_price: 1 + (price - 1) * placeFraction } };
}

/**
 * A 2- or 3-way matchup: the participant wins when it finishes ahead of every rival. A non-starter
 * among them voids it, as does a group none of whom finished; a participant that did not finish
 * ranks behind every one that did. A tie for the best is a dead heat shared by those tied.
 */
export function gradeMatchup(participant: string, rivals: readonly string[], finishes: readonly Finish[]): OutrightGrade {
  const finishOf = (p: string) => finishes.find((f) => f.participant === p);
  const own = finishOf(participant);
  const numbers: OutrightNumbers = { position: own?.position ?? null, status: own?.status ?? null, places: null, tied: 0 };
  const group = [participant, ...rivals].map(finishOf);
  if (group.some((f) => f === undefined || f.status === 'non_starter')) return graded('void', 0, numbers);
  const rank = (f: Finish | undefined) => (f?.status === 'finished' && f.position !== null ? f.position : Number.POSITIVE_INFINITY);
  const best = Math.min(...group.map(rank));
  if (best === Number.POSITIVE_INFINITY) return graded('void', 0, numbers);
  const tied = group.filter((f) => rank(f) === best).length;
  if (rank(own) !== best) return graded('lost', 0, { ...numbers, tied });
  return tied === 1 ? graded('won', 1, { ...numbers, tied }) : graded('dead_heat', 1 / tied, { ...numbers, tied });
}
