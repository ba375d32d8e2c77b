/**
 * Grading the markets of a competition with many participants (docs/data.md#dead-heats): a
 * winner, a top-N finish, a podium, each-way bets and matchups between participants. Pure: the
 * caller loads the finishing order and gets back the outcome, the share of the stake paid at the
 * price, and the numbers the grade used.
 *
 * The rules are the ones bookmakers print for golf, racing and futures:
 * - a participant who never started (`non_starter`) voids every bet on it, and every matchup it is in;
 * - one who started and withdrew, or was disqualified, loses: it took part, and its backers had their run;
 * - ties share a position, and when more are tied than there are paying places left, the stake is
 *   divided by the number tied and multiplied by the places left (the dead-heat rule).
 */

export const FINISH_STATUSES = ['finished', 'withdrawn', 'disqualified', 'non_starter'] as const;
/**
 * - `finished`: took part to the end; its `position` is where it finished (null when it was not
 *   placed: a golfer who missed the cut, a driver the race did not classify);
 * - `withdrawn`: started and did not finish (retired, withdrew during play);
 * - `disqualified`: started and was disqualified;
 * - `non_starter`: never started.
 */
export type FinishStatus = (typeof FINISH_STATUSES)[number];

/**
 * A participant's result. Positions are ranked as competitions rank them: tied participants share
 * a position and the next position skips as many (1, 2, 2, 4). A participant the results do not
 * name took part and was not placed.
 */
export interface Finish {
  participant: string;
  position: number | null;
  status: FinishStatus;
}

export const OUTRIGHT_OUTCOMES = ['won', 'lost', 'void', 'dead_heat'] as const;
export type OutrightOutcome = (typeof OUTRIGHT_OUTCOMES)[number];

/** What a matchup's grade used of each rival. */
export interface RivalFinish {
  participant: string;
  position: number | null;
  /** Null when the results do not name the rival. */
  status: FinishStatus | null;
}

/** The numbers a grade used. */
export interface OutrightNumbers {
  /** The participant's position; null when it has none. */
  position: number | null;
  /** Its status; null when the results do not name it (it took part and was not placed). */
  status: FinishStatus | null;
  /** The places that pay: 1 for a winner and a matchup (the best of its participants), N for a top-N, 3 for a podium. */
  places: number;
  /** How many finished ahead of it: in the field, or among the matchup's participants. Null when it had no place to compare. */
  ahead: number | null;
  /** How many share its place, itself included (3 for one of three tied for 5th). Null as `ahead`. */
  tied: number | null;
  /** How many paying places are left to those tied: the dead heat pays places_left ÷ tied when it is below 1. Null as `ahead`. */
  places_left: number | null;
  /** A matchup's other participants, in the order given; null for the other markets. */
  rivals: RivalFinish[] | null;
}

export interface OutrightGrade {
  outcome: OutrightOutcome;
  /**
   * The share of the stake paid at the price: 1 won, 0 lost, places_left ÷ tied in a dead heat (the
   * rest of the stake is lost). A void bet pays nothing at the price (0) and returns the stake.
   */
  factor: number;
  numbers: OutrightNumbers;
}

/**
 * A bet that the participant finishes within the first `places`: a winner is 1, a top-5 is 5, a
 * podium 3. Three tied for 5th in a top-5 share its one place left: each pays a third of the stake.
 */
export function gradePlaces(participant: string, places: number, finishes: readonly Finish[]): OutrightGrade {
  requireCount('places', places);
  const own = finishes.find((f) => f.participant === participant);
  const numbers: OutrightNumbers = { position: own?.position ?? null, status: own?.status ?? null, places, ahead: null, tied: null, places_left: null, rivals: null };
  if (own?.status === 'non_starter') return { outcome: 'void', factor: 0, numbers };
  // Withdrawn and disqualified participants hold no place, whatever position a feed gives them.
  const position = own?.status === 'finished' ? own.position : null;
  if (position === null) return { outcome: 'lost', factor: 0, numbers };

  const placed = finishes.filter((f) => f.status === 'finished' && f.position !== null);
  const ahead = placed.filter((f) => (f.position ?? 0) < position).length;
  const tied = placed.filter((f) => f.position === position).length;
  // The count ahead and the position agree when the ranking skips after ties (1, 2, 2, 4); when
  // they do not (1, 2, 2, 3, or results that name only the first few), the stricter of the two holds.
  const placesLeft = Math.max(0, Math.min(places - ahead, places - position + 1));
  return { ...shareOf(placesLeft, tied), numbers: { ...numbers, ahead, tied, places_left: placesLeft } };
}

/** An each-way bet's place part: a place bet at a fraction of the odds. */
export type PlaceGrade = OutrightGrade & { place_price: number };

/**
 * An each-way bet is two bets of equal stake: one to win at the price, one to finish within the
 * `places` of the terms at a fraction of the odds, 1 + (price − 1) × placeFraction (21.0 at 1/5 is
 * 5.0 a place). Each part is graded on its own, dead heats included.
 */
export function gradeEachWay(
  participant: string,
  places: number,
  placeFraction: number,
  price: number,
  finishes: readonly Finish[],
): { win: OutrightGrade; place: PlaceGrade } {
  if (!(placeFraction > 0 && placeFraction <= 1)) throw new RangeError(`placeFraction must be above 0 and at most 1, not ${placeFraction}`);
  if (!(price > 1 && Number.isFinite(price))) throw new RangeError(`price must be a finite decimal price above 1, not ${price}`);
  return {
    win: gradePlaces(participant, 1, finishes),
    place: { ...gradePlaces(participant, places, finishes), place_price: placePrice(price, placeFraction) },
  };
}

/** The decimal price of an each-way bet's place part. */
export function placePrice(price: number, placeFraction: number): number {
  return 1 + (price - 1) * placeFraction;
}

/**
 * A bet that the participant finishes ahead of each of `rivals` (one rival for a two-way matchup,
 * two for a three-way). The best finisher wins, and those tied for best share the win as a dead
 * heat. A non-starter among them voids the matchup. One who did not finish (withdrawn or
 * disqualified) loses to one who did, placed or not, and one placed beats one not placed. Within
 * each of these, the better position wins; two without a position tie.
 */
export function gradeMatchup(participant: string, rivals: readonly string[], finishes: readonly Finish[]): OutrightGrade {
  const group = [participant, ...rivals];
  if (rivals.length === 0 || new Set(group).size !== group.length) throw new RangeError('a matchup needs at least one rival, and names each participant once');
  const standings = group.map((name) => standingOf(name, finishes));
  const [own, ...others] = standings;
  if (own === undefined) throw new RangeError('a matchup names its participant');
  const numbers: OutrightNumbers = {
    position: own.position,
    status: own.status,
    places: 1,
    ahead: null,
    tied: null,
    places_left: null,
    rivals: others.map(({ participant: name, position, status }) => ({ participant: name, position, status })),
  };
  if (standings.some((s) => s.status === 'non_starter')) return { outcome: 'void', factor: 0, numbers };
  const ahead = others.filter((s) => compareStandings(s, own) < 0).length;
  const tied = standings.filter((s) => compareStandings(s, own) === 0).length;
  const placesLeft = ahead === 0 ? 1 : 0;
  return { ...shareOf(placesLeft, tied), numbers: { ...numbers, ahead, tied, places_left: placesLeft } };
}

/**
 * What a grade returns per unit staked at `price`: the price when won, 0 when lost, 1 (the stake)
 * when void, factor × price in a dead heat. An each-way bet returns its win part at the price and
 * its place part at `place_price`, each on half the total stake.
 */
export function returnOf(grade: Pick<OutrightGrade, 'outcome' | 'factor'>, price: number): number {
  return grade.outcome === 'void' ? 1 : grade.factor * price;
}

/** The outcome and factor of `tied` participants sharing `placesLeft` paying places. */
function shareOf(placesLeft: number, tied: number): Pick<OutrightGrade, 'outcome' | 'factor'> {
  if (placesLeft <= 0) return { outcome: 'lost', factor: 0 };
  if (placesLeft >= tied) return { outcome: 'won', factor: 1 };
  return { outcome: 'dead_heat', factor: placesLeft / tied };
}

interface Standing extends RivalFinish {
  /** 0 placed, 1 finished without a place (or not named), 2 started and did not finish, 3 never started. */
  rank: number;
}

function standingOf(participant: string, finishes: readonly Finish[]): Standing {
  const own = finishes.find((f) => f.participant === participant);
  if (own === undefined) return { participant, position: null, status: null, rank: 1 };
  const rank = { finished: own.position === null ? 1 : 0, withdrawn: 2, disqualified: 2, non_starter: 3 }[own.status];
  return { participant, position: own.position, status: own.status, rank };
}

/** Below 0 when a finished ahead of b, 0 when they tie. */
function compareStandings(a: Standing, b: Standing): number {
  if (a.rank !== b.rank) return a.rank - b.rank;
  return (a.position ?? Number.POSITIVE_INFINITY) - (b.position ?? Number.POSITIVE_INFINITY) || 0;
}

function requireCount(name: string, value: number): void {
  if (!(Number.isInteger(value) && value >= 1)) throw new RangeError(`${name} must be a whole number of at least 1, not ${value}`);
}
