import type { DataTable, ImportRepository } from './import.repository.js';
import type { Dataset } from './import.schemas.js';

/**
 * What a dataset's references may name: the dataset's own records, and the stored ones among the
 * ids it references but does not carry, read once per table (import.references.ts checks them).
 */

export interface EventFacts {
  league_id: number;
  sport_id: number;
  /** A matchup, or a competition (docs/data.md#competitions). */
  kind: string;
}

interface LegFacts {
  event_id: number;
  parlay: boolean;
}

/** The dataset's records of a table, completed with the stored ones among `referenced`. */
export type Known = <T>(
  table: DataTable,
  own: Map<number, T>,
  referenced: Iterable<number | null | undefined>,
  columns: readonly string[],
  fromRow: (row: Record<string, number | string | null>) => T,
) => Promise<Map<number, T>>;

export function knownIn(repo: ImportRepository, options: { replace: boolean }): Known {
  const stored = async <C extends string>(table: DataTable, ids: Set<number>, columns: readonly C[]) =>
    options.replace || ids.size === 0 ? [] : repo.existing(table, ids, columns);
  return async (table, own, referenced, columns, fromRow) => {
    const missing = new Set<number>();
    for (const id of referenced) if (id !== null && id !== undefined && !own.has(id)) missing.add(id);
    for (const row of await stored(table, missing, columns)) own.set(Number(row.id), fromRow(row));
    return own;
  };
}

/** Every record the dataset's references may name: its own, and the stored ones it references. */
export interface KnownRecords {
  sportIds: Map<number, true>;
  sportOfLeague: Map<number, number>;
  teamIds: Map<number, true>;
  playerIds: Map<number, true>;
  /** The sport of each event period. */
  periodSports: Map<number, number>;
  operatorIds: Map<number, true>;
  /** The key of each betting-market category. */
  categoryKeys: Map<number, string>;
  /** The settlement rule of each betting market (null: none). */
  marketRules: Map<number, string | null>;
  countryIds: Map<number, true>;
  dimensionIds: Map<number, true>;
  tagTypeIds: Map<number, true>;
  eventFacts: Map<number, EventFacts>;
  legFacts: Map<number, LegFacts>;
}

const ids = (items: ReadonlyArray<{ id: number }> | undefined) => new Map((items ?? []).map((item) => [item.id, true as const]));
const present = () => true as const;

/** Read one table at a time, in the order of the tables' dependencies. */
export async function knownRecords(dataset: Dataset, known: Known): Promise<KnownRecords> {
  const { sports = [], leagues = [], teams = [], players = [], betting_market_categories = [], betting_markets = [], event_periods = [], events = [], odds = [], flows = [] } =
    dataset;
  const { subnational_regions: regions = [], tag_types: tagTypes = [], competitions = [], competition_participants: participants = [] } = dataset;

  const sportIds = await known(
    'sports',
    ids(sports),
    [...leagues.map((l) => l.sport_id), ...betting_markets.map((m) => m.sport_id), ...event_periods.map((p) => p.sport_id)],
    [],
    present,
  );
  const sportOfLeague = await known(
    'leagues',
    new Map(leagues.map((l) => [l.id, l.sport_id])),
    [...teams.map((t) => t.league_id), ...events.map((e) => e.league_id), ...competitions.map((c) => c.league_id)],
    ['sport_id'],
    (row) => Number(row.sport_id),
  );
  const teamIds = await known(
    'teams',
    ids(teams),
    [
      ...players.map((p) => p.team_id),
      ...events.flatMap((e) => [e.home_team_id, e.away_team_id]),
      ...flows.map((f) => (f.focus_entity_type === 'team' ? f.focus_entity_id : undefined)),
      ...flows.flatMap((f) => (f.hit_history ?? []).map((game) => game.opponent_team_id)),
      ...participants.map((p) => p.team_id),
    ],
    [],
    present,
  );
  const playerIds = await known(
    'players',
    ids(players),
    [...flows.map((f) => (f.focus_entity_type === 'player' ? f.focus_entity_id : undefined)), ...odds.map((o) => o.player_id), ...participants.map((p) => p.player_id)],
    [],
    present,
  );
  const periodSports = await known('event_periods', new Map(event_periods.map((p) => [p.id, p.sport_id])), odds.map((o) => o.event_period_id), ['sport_id'], (row) =>
    Number(row.sport_id),
  );
  const operatorIds = await known('operators', ids(dataset.operators), odds.map((o) => o.operator_id), [], present);
  const categoryKeys = await known(
    'betting_market_categories',
    new Map(betting_market_categories.map((c) => [c.id, c.key])),
    betting_markets.map((m) => m.category_id),
    ['key'],
    (row) => String(row.key),
  );
  const marketRules = await known(
    'betting_markets',
    new Map(betting_markets.map((m) => [m.id, m.settlement?.rule ?? null])),
    [...odds.map((o) => o.betting_market_id), ...flows.map((f) => f.betting_market_id)],
    ['settlement_rule'],
    (row) => (row.settlement_rule === null ? null : String(row.settlement_rule)),
  );

  const countryIds = await known('countries', ids(dataset.countries), regions.map((r) => r.country_id), [], present);
  const dimensionIds = await known('tag_dimensions', ids(dataset.tag_dimensions), tagTypes.map((t) => t.dimension_id), [], present);
  const tagTypeIds = await known('tag_types', ids(tagTypes), flows.flatMap((f) => f.tag_type_ids ?? []), [], present);
  const catalogue = { sportIds, sportOfLeague, teamIds, playerIds, periodSports, operatorIds, categoryKeys, marketRules, countryIds, dimensionIds, tagTypeIds };
  return { ...catalogue, ...(await knownFacts(dataset, known, sportOfLeague)) };
}

/** The league and sport of the events the odds and flows name, and the event of each parlay leg. */
async function knownFacts(dataset: Dataset, known: Known, sportOfLeague: ReadonlyMap<number, number>): Promise<Pick<KnownRecords, 'eventFacts' | 'legFacts'>> {
  const { events = [], competitions = [], odds = [], flows = [] } = dataset;
  const ownEvents = new Map<number, EventFacts>();
  for (const e of events) ownEvents.set(e.id, { league_id: e.league_id, sport_id: sportOfLeague.get(e.league_id) ?? 0, kind: 'matchup' });
  for (const c of competitions) ownEvents.set(c.id, { league_id: c.league_id, sport_id: sportOfLeague.get(c.league_id) ?? 0, kind: 'competition' });
  const eventFacts = await known('events', ownEvents, [...odds.map((o) => o.event_id), ...flows.map((f) => f.event_id)], ['league_id', 'sport_id', 'kind'], (row) => ({
    league_id: Number(row.league_id),
    sport_id: Number(row.sport_id),
    kind: String(row.kind),
  }));
  const legFacts = await known(
    'flows',
    new Map<number, LegFacts>(flows.map((f) => [f.id, { event_id: f.event_id, parlay: (f.leg_ids ?? []).length > 0 }])),
    flows.flatMap((f) => f.leg_ids ?? []),
    ['event_id', 'bet_type'],
    (row) => ({ event_id: Number(row.event_id), parlay: row.bet_type === 'parlay' }),
  );
  return { eventFacts, legFacts };
}
