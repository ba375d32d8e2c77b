import type { EventStatus } from '../../../shared/event-status.js';
import { drawProps, type Props } from './offers.js';
import { expectedTotal, type Outlook, outlookOf } from './outlook.js';
import type { Random } from './random.js';
import type { Fixture } from './schedule.js';

/**
 * The events of the schedule, each with its outlook (what its prices and score come from), its
 * props, and the status and score it has at the moment the dataset is made.
 */

export interface EventModel extends Fixture {
  id: number;
  status: EventStatus;
  /** The score of a final or live event; absent for the others. */
  score?: { home: number; away: number };
  /** The consensus view of the game: each book prices from it, moved a little by its own opinion. */
  outlook: Outlook;
  props: Props;
}

/** A few games are called off: postponed, or cancelled. */
const POSTPONED = 0.01;
const CANCELLED = 0.005;

/** The fixtures as events, ids from `firstId` on, in the order given. */
export function buildEvents(random: Random, fixtures: readonly Fixture[], now: number, firstId: number): EventModel[] {
  return fixtures.map((fixture, i) => {
    const { league, home, away, start } = fixture;
    const sport = league.sport.def;
    const diff = home.rating - away.rating + sport.homeAdvantage;
    const outlook = outlookOf(sport, diff, expectedTotal(random, sport, diff));
    const event: EventModel = { id: firstId + i, league, home, away, start, status: 'scheduled', outlook, props: drawProps(random, fixture) };
    const roll = random.next();
    const played = (now - start) / (sport.minutes * 60_000);
    // Drawn for every event, so that the hour the dataset is made changes statuses and scores, not what follows.
    const score = outlook.score(random, Math.min(1, Math.max(0, played)));
    if (roll < POSTPONED) event.status = 'postponed';
    else if (roll < POSTPONED + CANCELLED) event.status = 'cancelled';
    else if (played >= 1) event.status = 'final';
    else if (played >= 0) event.status = 'live';
    if (event.status === 'final' || event.status === 'live') event.score = score;
    return event;
  });
}

/** Not started when the dataset was made, and still to be played: what trends are told about. */
export const isAhead = (event: EventModel, now: number) => event.start > now && event.status === 'scheduled';
