import type { Dataset } from '../../import/index.js';
import { describeSingle, type FlowType, legLabel } from './descriptions.js';
import type { EventModel } from './events.js';
import { bookPrices, quotas } from './odds.js';
import { mainOffers, propOffers, type Selection } from './offers.js';
import type { Random } from './random.js';
import type { MarketModel, TeamModel } from './references.js';
import { utcDay } from '../../../platform/time.js';

type FlowItem = NonNullable<Dataset['flows']>[number];

const SAMPLE_SIZES = [5, 6, 8, 10, 10, 12, 15, 20];
/** A fact single's sub-type by its id: eight in ten base, one expanded, one multi. */
const FACT_SUB_TYPES: ReadonlyArray<NonNullable<FlowItem['fact_flow_type']>> = ['base', 'base', 'base', 'expanded', 'base', 'base', 'base', 'multi', 'base', 'base'];
/** A fact flow in every demo dataset: the document's example of flow-graph-data names it. */
export const EXAMPLE_FACT_FLOW_ID = 1;
/** A flow's price carries an average book margin. */
const MARGIN = 0.05;

const likelihoodOf = (price: number): FlowItem['likelihood'] => {
  const implied = 1 / price;
  return implied >= 0.55 ? 'likely' : implied >= 0.35 ? 'possible' : 'longshot';
};

/** A bet a flow can be about: one side of a market, at a typical book's price. */
interface Bet {
  selection: Selection;
  price(): number;
}

/**
 * Exactly `total` flows, each event getting its share: singles on the event's bets (fact, fun and
 * plain), and one or two same-event parlays of 2–4 of those singles.
 */
/** A team's own results in a market before a moment, oldest first: what a computed trend counts. */
export type PastRecord = (team: TeamModel, market: MarketModel, before: number) => ReadonlyArray<{ start: number; opponent: TeamModel; won: boolean }>;

/** A trend about a team's wins is told from its real past games when the demo holds at least this many. */
const MIN_PLAYED = 3;

export function buildFlows(random: Random, events: readonly EventModel[], total: number, record: PastRecord = () => []): FlowItem[] {
  const flows: FlowItem[] = [];
  const perEvent = quotas(total, events.length);
  events.forEach((event, index) => {
    const quota = perEvent[index] ?? 0;
    const bets = oneSidePerBet(random, event);
    const choices = random.sample(bets, bets.length);
    let parlays = quota >= 6 ? random.int(1, 2) : quota >= 3 ? 1 : 0;
    // A parlay needs two distinct bets among the singles.
    if (Math.min(choices.length, quota - parlays) < 2) parlays = 0;
    const singles: Array<{ flow: FlowItem; selection: Selection; rate: number }> = [];
    for (let n = 0; n < quota - parlays; n++) {
      const bet = choices[n % choices.length];
      if (bet === undefined) break;
      const single = singleFlow(random, flows.length + 1, event, bet, record);
      flows.push(single.flow);
      singles.push({ ...single, selection: bet.selection });
    }
    for (let n = 0; n < parlays; n++) {
      // Legs are distinct bets (the first singles are, before any repeat).
      const distinct = singles.slice(0, choices.length);
      const legs = random.sample(distinct, random.int(2, Math.min(4, distinct.length)));
      flows.push(parlay(random, flows.length + 1, event, legs));
    }
  });
  return flows;
}

/**
 * One side of each market of the event at its main line, as a typical book quotes it: an event's
 * flows never back both the over and the under of one line.
 */
function oneSidePerBet(random: Random, event: EventModel): Bet[] {
  const { outlook, props } = event;
  const offers = [...mainOffers(event, outlook), ...propOffers(event, outlook, props)];
  return offers.map((offer) => {
    const side = random.int(0, offer.sides.length - 1);
    const selection = offer.sides[side] ?? offer.sides[0];
    if (selection === undefined) throw new Error(`market ${offer.market.def.key} without sides`);
    // Priced when a flow is told about it: most bets of an event are not.
    return { selection, price: () => bookPrices(offer.sides.map((s) => s.p), MARGIN)[side] ?? 2 };
  });
}

// Fact flows, the default of /v1/trends/flows, are the bulk of the catalogue (about 70%).
function flowTypeOf(random: Random, fact: number, fun: number): FlowType {
  const roll = random.next();
  return roll < fact ? 'fact' : roll < fact + fun ? 'fun' : 'plain';
}

function singleFlow(random: Random, id: number, event: EventModel, bet: Bet, record: PastRecord): { flow: FlowItem; rate: number } {
  const { selection } = bet;
  const price = bet.price();
  // The roll is made for the example flow too, so that every later draw stays as it was.
  const rolled = flowTypeOf(random, 0.7, 0.15);
  const type = id === EXAMPLE_FACT_FLOW_ID ? 'fact' : rolled;
  // A trend is worth telling when it beats the price: hit rates run above the implied chance.
  const rate = Math.min(1, 1 / price + random.between(0.05, 0.35));
  const drawn = random.pick(SAMPLE_SIZES);
  const { focus } = selection;
  // A fact about a team's wins is its real record when the demo's past holds enough of its games.
  const games = type === 'fact' && focus.type === 'team' && backsTeam(selection, event) ? record(focus.team, selection.market, event.start) : [];
  const told = games.length >= MIN_PLAYED ? games.slice(-Math.min(drawn, games.length)) : undefined;
  const total = told?.length ?? drawn;
  const hits = told ? told.filter((g) => g.won).length : Math.min(total, Math.round(rate * total));
  const flow: FlowItem = {
    id,
    flow_type: type,
    event_id: event.id,
    focus_entity_type: focus.type,
    description: describeSingle(type, selection, event, hits, total),
    hits,
    total,
    likelihood: likelihoodOf(price),
    betting_market_id: selection.market.id,
    price_decimal: price,
  };
  // Most fact flows are base trends; some are expanded or multi, by id so that no later draw moves.
  if (type === 'fact' && id !== EXAMPLE_FACT_FLOW_ID) flow.fact_flow_type = FACT_SUB_TYPES[id % FACT_SUB_TYPES.length] ?? 'base';
  if (focus.type === 'team') flow.focus_entity_id = focus.team.id;
  if (focus.type === 'player') flow.focus_entity_id = focus.player.id;
  if (selection.line !== null) flow.line = selection.line;
  if (selection.split !== null) flow.split = selection.split;
  // The selection as its odds rows name it: the flow then shares their event_betting_market_position_id.
  flow.position = selection.position;
  if (told) flow.hit_history = told.map((g) => ({ date: utcDay(g.start), opponent_team_id: g.opponent.id, hit: g.won }));
  return { flow, rate };
}

/** A bet on the focus team's own side of a match-winner market (moneyline or 1X2). */
function backsTeam(selection: Selection, event: EventModel): boolean {
  const kind = selection.market.def.kind;
  if (kind !== 'moneyline' && kind !== 'three-way') return false;
  const team = selection.focus.type === 'team' ? selection.focus.team : undefined;
  return (selection.position === 'home' && team === event.home) || (selection.position === 'away' && team === event.away);
}

function parlay(random: Random, id: number, event: EventModel, legs: ReadonlyArray<{ flow: FlowItem; selection: Selection; rate: number }>): FlowItem {
  // Same-event legs are correlated, so books pay less than the product of the prices.
  const product = legs.reduce((acc, leg) => acc * (leg.flow.price_decimal ?? 2), 1);
  const price = Math.max(1.01, Math.round(product * random.between(0.8, 0.95) * 100) / 100);
  const rate = Math.min(1, legs.reduce((acc, leg) => acc * leg.rate, 1) * random.between(1.1, 1.6));
  const total = random.pick([5, 8, 10, 10, 12]);
  const hits = Math.min(total, Math.round(rate * total));
  const type = flowTypeOf(random, 0.7, 0.15);
  const labels = legs.map((leg) => legLabel(leg.selection)).join(' + ');
  const description =
    type === 'plain'
      ? `${legs.length}-leg same-game parlay: ${labels}`
      : `Same-game parlay: ${labels} — all legs hit in ${hits} of the last ${total} ${event.league.sport.def.unit} together`;
  return {
    id,
    flow_type: type,
    event_id: event.id,
    focus_entity_type: 'event',
    description,
    hits,
    total,
    likelihood: likelihoodOf(price),
    price_decimal: price,
    leg_ids: legs.map((leg) => leg.flow.id),
  };
}
