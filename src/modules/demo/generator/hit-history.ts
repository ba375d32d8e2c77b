import type { Dataset } from '../../import/index.js';
import type { EventModel } from './events.js';
import type { Random } from './random.js';
import type { TeamModel, World } from './references.js';
import { DAY_MS, utcDay } from '../../../platform/time.js';

type FlowItem = NonNullable<Dataset['flows']>[number];
type Game = NonNullable<FlowItem['hit_history']>[number];

/**
 * The games behind every fact flow's `hits` of `total` (its graph data): `total` games played
 * before the day the dataset is made (`now`), exactly `hits` of them hits, each against another
 * team of the league. The side whose games they are is the focus team, a focus player's team, or
 * for an event-focused flow (totals, parlays) the home team. Drawn from a random stream of their
 * own, so that the rest of the dataset is the same as without them.
 */
export function addHitHistories(random: Random, world: World, events: readonly EventModel[], flows: FlowItem[], now: number): void {
  const eventById = new Map(events.map((e) => [e.id, e]));
  const teamById = new Map(world.teams.map((t) => [t.id, t]));
  const teamOfPlayer = new Map(world.players.map((p) => [p.id, p.team]));
  const dateOf = dayTexts();
  for (const flow of flows) {
    const event = eventById.get(flow.event_id);
    // A flow told from the demo's own results has its real games already.
    if (flow.flow_type !== 'fact' || event === undefined || flow.hit_history !== undefined) continue;
    const focus = flow.focus_entity_id ?? undefined;
    const side =
      (flow.focus_entity_type === 'team' && focus !== undefined ? teamById.get(focus) : undefined) ??
      (flow.focus_entity_type === 'player' && focus !== undefined ? teamOfPlayer.get(focus) : undefined) ??
      event.home;
    // A trend counts games already played: none after the day it is told.
    flow.hit_history = pastGames(random, dateOf, side, Math.min(event.start, now), flow.hits, flow.total);
  }
}

/** `total` games on the days before `before`, 2 to 7 days apart, oldest first, `hits` of them hits. */
function pastGames(random: Random, dateOf: (day: number) => string, side: TeamModel, before: number, hits: number, total: number): Game[] {
  const opponents = side.league.teams.filter((t) => t.id !== side.id);
  const hitAt = new Set(random.sample([...Array(total).keys()], hits));
  let day = Math.floor(before / DAY_MS) * DAY_MS;
  const games: Game[] = [];
  for (let n = 0; n < total; n++) {
    day -= random.int(2, 7) * DAY_MS;
    const opponent = random.pick(opponents);
    games.push({ date: dateOf(day), opponent_team_id: opponent.id, hit: hitAt.has(n) });
  }
  return games.reverse();
}

/** YYYY-MM-DD of a day's first instant, made once per day: at --scale 10 there are 1.5 million games. */
function dayTexts(): (day: number) => string {
  const texts = new Map<number, string>();
  return (day) => {
    let text = texts.get(day);
    if (text === undefined) {
      text = utcDay(day);
      texts.set(day, text);
    }
    return text;
  };
}
