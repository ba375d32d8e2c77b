import { type SelectQueryBuilder, sql } from 'kysely';
import type { Database } from '../../../platform/db/database.js';
import type { FlowsTable, Schema } from '../../../platform/db/schema.js';
import type { ResolvedFlowFilters } from '../flow-filters.js';

/** The flows' ids, narrowed one filter at a time. */
type FlowIdsQuery = SelectQueryBuilder<Schema & { f: FlowsTable }, 'f', { id: number }>;

/**
 * The ordered ids of the flows matching a filter combination: one query per combination and
 * data version (the caller caches the list). What each filter matches (docs/api.md#trends):
 * - team_ids: flows of an event the team plays in (home or away), or focused on the team;
 * - player_ids: flows focused on the player, and parlays with a leg focused on the player;
 * - operator_ids: flows of an event that one of the operators prices (has odds for);
 * - the bet's market, its category or entity type, and the split: a single's own bet, or for a
 *   parlay one leg whose bet matches them all;
 * - implied probability: the flow's own (a parlay's is its price's);
 * - event start range: [starts_from, starts_before) on the event's start time;
 * - tag_type_ids: flows tagged with one of the tag types or with one of their descendants;
 * - position_ids: the position of the bet's selection, by the position's key (as for the market);
 * - over_under (product_mode dfs): a bet on a side of a line, as the split filter;
 * - fact_flow_type: the stored sub-type (every fun and plain flow is base);
 * - main_lines_only: no flow on an alternate line, nor a parlay with a leg on one (altLineFlows);
 * - odditt_names: no plain single (Odditt's vocabulary names plain flows only as parlays).
 * Up to every flow (200,000 at --scale 10): read off the event loop (Database.readIds).
 */
export function flowIds(database: Database, f: ResolvedFlowFilters): Promise<Float64Array> {
  let q: FlowIdsQuery = database.db.selectFrom('flows as f').select('f.id');
  q = byOwnColumns(q, f);
  q = byEventStart(q, f);
  q = byTags(q, f.tag_type_ids);
  q = byFocus(q, f);
  q = byTeams(q, f.team_ids);
  q = byPlayers(q, f.player_ids);
  q = byOperators(q, f.operator_ids);
  q = byBet(q, f);
  return database.readIds(q.orderBy('f.id'));
}

/** The filters on the flow's own columns. */
function byOwnColumns(query: FlowIdsQuery, f: ResolvedFlowFilters): FlowIdsQuery {
  let q = query;
  if (f.sport_ids) q = q.where('f.sport_id', 'in', f.sport_ids);
  if (f.league_ids) q = q.where('f.league_id', 'in', f.league_ids);
  if (f.event_ids) q = q.where('f.event_id', 'in', f.event_ids);
  if (f.flow_type) q = q.where('f.flow_type', '=', f.flow_type);
  if (f.odditt_names) q = q.where((eb) => eb.or([eb('f.flow_type', '!=', 'plain'), eb('f.bet_type', '=', 'parlay')]));
  q = q.where('f.fact_flow_type', '=', f.fact_flow_type);
  if (f.main_lines_only) q = q.where(sql<boolean>`f.id not in (${altLineFlows})`);
  if (f.bet_type) q = q.where('f.bet_type', '=', f.bet_type);
  if (f.likelihood) q = q.where('f.likelihood', '=', f.likelihood);
  if (f.min_hit_rate !== undefined) q = q.where('f.hit_rate_pct', '>=', f.min_hit_rate);
  if (f.max_hit_rate !== undefined) q = q.where('f.hit_rate_pct', '<=', f.max_hit_rate);
  if (f.min_implied !== undefined) q = q.where('f.implied_probability', '>=', f.min_implied);
  if (f.max_implied !== undefined) q = q.where('f.implied_probability', '<=', f.max_implied);
  return q;
}

/** [starts_from, starts_before) on the event's start time. */
function byEventStart(q: FlowIdsQuery, { starts_from: from, starts_before: before }: ResolvedFlowFilters): FlowIdsQuery {
  if (from === undefined && before === undefined) return q;
  return q.where('f.event_id', 'in', (sub) => {
    let events = sub.selectFrom('events').select('id');
    if (from !== undefined) events = events.where('start_time', '>=', from);
    if (before !== undefined) events = events.where('start_time', '<', before);
    return events;
  });
}

/** Tagged with one of the tag types or with one of their descendants. */
function byTags(q: FlowIdsQuery, tags: ResolvedFlowFilters['tag_type_ids']): FlowIdsQuery {
  if (!tags) return q;
  // The taxonomy is a forest (the import refuses cycles); UNION also stops at a repeated row.
  return q.where(
    sql<boolean>`f.id in (select ft.flow_id from flow_tags ft where ft.tag_type_id in (
      with recursive tagged(id) as (
        select id from tag_types where id in (${sql.join(tags)})
        union select c.id from tag_types c join tagged on c.parent_id = tagged.id
      ) select id from tagged))`,
  );
}

/** The focus entity's type, and the home or away team of the flow's event as its focus. */
function byFocus(query: FlowIdsQuery, f: ResolvedFlowFilters): FlowIdsQuery {
  let q = query;
  if (f.focus_type) q = q.where('f.focus_entity_type', '=', f.focus_type);
  if (f.team_split) {
    const side = f.team_split === 'home' ? 'home_team_id' : 'away_team_id';
    q = q
      .where('f.focus_entity_type', '=', 'team')
      .where(({ eb, selectFrom }) => eb('f.focus_entity_id', '=', selectFrom('events as se').select(`se.${side}`).whereRef('se.id', '=', 'f.event_id')));
  }
  return q;
}

/** Of an event a team plays in (home or away), or focused on the team. */
function byTeams(q: FlowIdsQuery, teams: ResolvedFlowFilters['team_ids']): FlowIdsQuery {
  if (!teams) return q;
  return q.where((eb) =>
    eb.or([
      eb(
        'f.event_id',
        'in',
        eb.selectFrom('events').select('id').where((e) => e.or([e('home_team_id', 'in', teams), e('away_team_id', 'in', teams)])),
      ),
      eb.and([eb('f.focus_entity_type', '=', 'team'), eb('f.focus_entity_id', 'in', teams)]),
    ]),
  );
}

/** Focused on the player, or a parlay with a leg focused on the player. */
function byPlayers(q: FlowIdsQuery, players: ResolvedFlowFilters['player_ids']): FlowIdsQuery {
  if (!players) return q;
  return q.where((eb) =>
    eb.or([
      eb.and([eb('f.focus_entity_type', '=', 'player'), eb('f.focus_entity_id', 'in', players)]),
      eb(
        'f.id',
        'in',
        eb
          .selectFrom('flow_legs as fl')
          .innerJoin('flows as leg', 'leg.id', 'fl.leg_id')
          .select('fl.flow_id')
          .where('leg.focus_entity_type', '=', 'player')
          .where('leg.focus_entity_id', 'in', players),
      ),
    ]),
  );
}

/** Of an event that one of the operators prices. */
function byOperators(q: FlowIdsQuery, operators: ResolvedFlowFilters['operator_ids']): FlowIdsQuery {
  if (!operators) return q;
  // One pass over the odds for the set of priced events, not a probe per flow.
  return q.where('f.event_id', 'in', (sub) => sub.selectFrom('odds').select('event_id').where('operator_id', 'in', operators));
}

/** The bet's market, category, entity type, split and position: a single's own bet, or one leg's of a parlay. */
function byBet(q: FlowIdsQuery, f: ResolvedFlowFilters): FlowIdsQuery {
  const { betting_market_ids: markets, category_ids: categories, entity_type: entityType, split, position_ids: positions, over_under: overUnder } = f;
  if (!(markets || categories || entityType || split || positions || overUnder)) return q;
  return q.where((eb) => {
    let bets = eb.selectFrom('flows as b').select('b.id');
    if (markets) bets = bets.where('b.betting_market_id', 'in', markets);
    if (categories) bets = bets.where('b.betting_market_id', 'in', eb.selectFrom('betting_markets as m').select('m.id').where('m.category_id', 'in', categories));
    if (entityType) bets = bets.where('b.betting_market_id', 'in', eb.selectFrom('betting_markets as m').select('m.id').where('m.entity_type', '=', entityType));
    if (split) bets = bets.where('b.split', '=', split);
    if (overUnder) bets = bets.where('b.split', 'is not', null);
    if (positions) {
      bets = bets.where(
        'b.selection_id',
        'in',
        eb.selectFrom('selections as s').innerJoin('betting_market_positions as p', 'p.key', 's.position').select('s.id').where('p.id', 'in', positions),
      );
    }
    return eb.or([eb('f.id', 'in', bets), eb('f.id', 'in', eb.selectFrom('flow_legs as bl').select('bl.flow_id').where('bl.leg_id', 'in', bets))]);
  });
}

/**
 * The flows on an alternate line, and the parlays with a leg on one (docs/data.md#alternate-lines,
 * decision 0235). A book sets its main line where the two sides are priced most alike; alternates
 * further out price one side long and the other short. So a selection's imbalance is how far its
 * implied chance (averaged over the operators quoting it) is from its other side's: the other
 * position of the same event, market, period and player at the same line (over/under) or its
 * opposite (a handicap's away side); the nearest when several could be. A selection is on an
 * alternate line when another line of its position is less imbalanced. Equal ones are all main;
 * a selection without a quoted other side is not judged.
 */
const altLineFlows = sql`
  with quoted as (
    select s.id, s.event_id, s.betting_market_id, s.period, s.player, s.position, s.line, avg(1.0 / o.price_decimal) as implied
    from selections s join odds o on o.selection_id = s.id
    where s.line is not null
    group by s.id, s.event_id, s.betting_market_id, s.period, s.player, s.position, s.line
  ), balance as (
    select a.id, a.event_id, a.betting_market_id, a.period, a.player, a.position, min(abs(a.implied - b.implied)) as gap
    from quoted a join quoted b
      on b.event_id = a.event_id and b.betting_market_id = a.betting_market_id and b.period = a.period and b.player = a.player
        and b.position <> a.position and (b.line = a.line or b.line = -a.line)
    group by a.id, a.event_id, a.betting_market_id, a.period, a.player, a.position
  ), alternate as (
    select x.id from balance x join balance y
      on y.event_id = x.event_id and y.betting_market_id = x.betting_market_id and y.period = x.period
        and y.player = x.player and y.position = x.position and y.gap + 0.000001 < x.gap
  )
  select single.id from flows single where single.selection_id in (select id from alternate)
  union select fl.flow_id from flow_legs fl join flows leg on leg.id = fl.leg_id where leg.selection_id in (select id from alternate)`;
