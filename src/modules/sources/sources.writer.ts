import type { Dataset } from '../import/index.js';
import type { RowProblem, SourceMarket, SourcePosition, SourcePrice, SourceRow } from './source-batch.js';
import type { Resolver, Unmatched } from './sources.resolver.js';
import type { SourcesRepository, StoredEvent, StoredOdds } from './sources.repository.js';

/**
 * A second source's event is the one stored when its league and both teams agree and the kick-offs
 * are at most this far apart (docs/operations.md#loading-real-data): football-data gives the UK day
 * and time, The Odds API the instant, and a rearranged match moves by days, not hours.
 */
export const SAME_EVENT_WINDOW_MS = 36 * 3_600_000;

/** The markets a source prices, as the demo catalogue names them, each with its settlement rule. */
const MARKETS: Record<SourceMarket, { name: string; rule: '1x2' | 'moneyline' | 'total' | 'spread'; entity_type: 'team' | 'event' }> = {
  'match-result': { name: 'Match Result (1X2)', rule: '1x2', entity_type: 'team' },
  moneyline: { name: 'Moneyline', rule: 'moneyline', entity_type: 'team' },
  total: { name: 'Total', rule: 'total', entity_type: 'event' },
  spread: { name: 'Spread', rule: 'spread', entity_type: 'team' },
};
const POSITION_NAMES: Record<SourcePosition, string> = { home: 'Home', draw: 'Draw', away: 'Away', over: 'Over', under: 'Under' };
const FIRST_HALF = { key: '1st-half', name: '1st Half' };

type OddsItem = NonNullable<Dataset['odds']>[number];
type EventItem = NonNullable<Dataset['events']>[number];

/** What a batch's rows became: the datasets to write in order, the rows imported, and the rows left waiting. */
export interface Written {
  datasets: Dataset[];
  imported: SourceRow[];
  waiting: Array<{ row: SourceRow; unmatched: Unmatched[] }>;
  /** The rows a name refused (a league code no rule maps), as problems of the batch. */
  refused: RowProblem[];
  counts: { events: number; odds: number; results: number };
}

/**
 * Resolves the rows and builds what is written: the records made (first dataset), then each
 * selection's price points in time order, one dataset per round, so that a selection priced twice
 * in one file (football-data's pre-closing and closing prices) gets both into its history (decision
 * 0297). A point before the stored row's updated_at, or at it with its price, is not applied again: a
 * file imported twice writes no history.
 */
export async function buildDatasets(repo: SourcesRepository, resolver: Resolver, rows: readonly SourceRow[]): Promise<Written> {
  const waiting: Written['waiting'] = [];
  const refused: RowProblem[] = [];
  const matched: Array<{ row: SourceRow; event: EventItem; sportId: number }> = [];
  const madeEvents: EventItem[] = [];
  for (const row of rows) {
    const sportId = await resolver.sport(row.league.sport);
    const league = await resolver.league(row.league, sportId);
    if ('refused' in league) {
      refused.push({ row: row.row, ...league.refused });
      continue;
    }
    if ('unmatched' in league) {
      waiting.push({ row, unmatched: [league.unmatched] });
      continue;
    }
    const sides = [await resolver.team(row.home, league.id), await resolver.team(row.away, league.id)];
    const unmatched = sides.flatMap((side) => ('unmatched' in side ? [side.unmatched] : []));
    const [home, away] = sides.map((side) => ('id' in side ? side.id : 0)) as [number, number];
    if (unmatched.length > 0) {
      waiting.push({ row, unmatched });
      continue;
    }
    const event = await eventOf(repo, resolver, row, { league: league.id, home, away }, madeEvents);
    matched.push({ row, event, sportId });
  }
  const stored = new Map((await repo.eventsByIds(matched.map((m) => m.event.id))).map((e) => [e.id, e]));
  const events: Array<{ item: EventItem; result: boolean }> = [];
  for (const m of matched) events.push(await withResult(repo, resolver, m.event, m.row, m.sportId, stored.get(m.event.id)));
  const vocabulary = await marketsAndPositions(repo, resolver, matched.map((m) => m.row));
  const rounds = await priceRounds(repo, resolver, matched, vocabulary.marketIds);
  const first: Dataset = { ...resolver.created, ...vocabulary.dataset, events: dedupeById(events.map((e) => e.item)), odds: rounds[0] ?? [] };
  return {
    datasets: [first, ...rounds.slice(1).map((odds) => ({ odds }))],
    imported: matched.map((m) => m.row),
    waiting,
    refused,
    counts: { events: first.events?.length ?? 0, odds: rounds.reduce((n, r) => n + r.length, 0), results: events.filter((e) => e.result).length },
  };
}

/** The row's event: the source's own key, then a stored or just-made event of the same league, teams and near kick-off, else a new one. */
async function eventOf(repo: SourcesRepository, resolver: Resolver, row: SourceRow, at: { league: number; home: number; away: number }, made: EventItem[]): Promise<EventItem> {
  const start = Date.parse(row.startTime);
  const near = (e: { league_id: number; home_team_id: number; away_team_id: number }, time: number) =>
    e.league_id === at.league && e.home_team_id === at.home && e.away_team_id === at.away && Math.abs(time - start) <= SAME_EVENT_WINDOW_MS;
  const base = { league_id: at.league, home_team_id: at.home, away_team_id: at.away, start_time: new Date(start).toISOString() };
  const own = await resolver.eventOfKey(row.eventKey);
  if (own !== undefined) return { id: own, ...base };
  const existing = made.find((e) => near(e, Date.parse(e.start_time)))?.id ?? (await repo.eventsNear(at.league, at.home, at.away, start, SAME_EVENT_WINDOW_MS))[0]?.id;
  const id = existing ?? (await resolver.allocate('events'));
  await resolver.link('event', row.eventKey, id, existing === undefined);
  const item = { id, ...base };
  if (existing === undefined) made.push(item);
  return item;
}

/** The event item written: a stored event keeps its kick-off and teams; the row's result, when it has one, is written over its status and score. */
async function withResult(repo: SourcesRepository, resolver: Resolver, item: EventItem, row: SourceRow, sportId: number, stored: StoredEvent | undefined): Promise<{ item: EventItem; result: boolean }> {
  const base: EventItem = stored
    ? { id: stored.id, league_id: stored.league_id, home_team_id: stored.home_team_id, away_team_id: stored.away_team_id, start_time: new Date(stored.start_time).toISOString(), status: stored.status as EventItem['status'], home_score: stored.home_score, away_score: stored.away_score }
    : item;
  const result = row.result;
  if (result === undefined) return { item: base, result: false };
  const scored = result.home !== undefined && result.away !== undefined;
  const period = result.firstHalf ? await firstHalfPeriod(repo, resolver, sportId) : undefined;
  return {
    item: {
      ...base,
      status: result.status,
      ...(scored ? { home_score: result.home, away_score: result.away } : {}),
      ...(period !== undefined && result.firstHalf ? { period_scores: [{ event_period_id: period, home_score: result.firstHalf.home, away_score: result.firstHalf.away }] } : {}),
    },
    result: true,
  };
}

const periods = new WeakMap<Resolver, Map<number, Promise<number>>>();
/** The sport's first-half period, made when absent (once per resolution). */
function firstHalfPeriod(repo: SourcesRepository, resolver: Resolver, sportId: number): Promise<number> {
  let bySport = periods.get(resolver);
  if (bySport === undefined) periods.set(resolver, (bySport = new Map()));
  let found = bySport.get(sportId);
  if (found === undefined) {
    found = (async () => {
      const stored = await repo.eventPeriod(sportId, FIRST_HALF.key);
      if (stored !== undefined) return stored;
      const id = await resolver.allocate('event_periods');
      resolver.extra.event_periods.push({ id, ...FIRST_HALF, sport_id: sportId });
      return id;
    })();
    bySport.set(sportId, found);
  }
  return found;
}

/** The markets and positions the prices name, by key; those not stored are made (with the demo catalogue's names and settlement). */
async function marketsAndPositions(repo: SourcesRepository, resolver: Resolver, rows: readonly SourceRow[]): Promise<{ marketIds: Map<SourceMarket, number>; dataset: Dataset }> {
  const prices = rows.flatMap((r) => r.prices);
  const marketKeys = [...new Set(prices.map((p) => p.market))];
  const positionKeys = [...new Set(prices.map((p) => p.position))];
  const marketIds = new Map<SourceMarket, number>();
  for (const m of await repo.byKey('betting_markets', marketKeys)) if (!marketIds.has(m.key as SourceMarket)) marketIds.set(m.key as SourceMarket, m.id);
  const markets: NonNullable<Dataset['betting_markets']> = [];
  for (const key of marketKeys) {
    if (marketIds.has(key)) continue;
    const id = await resolver.allocate('betting_markets');
    const def = MARKETS[key];
    marketIds.set(key, id);
    markets.push({ id, key, name: def.name, category: 'main', entity_type: def.entity_type, settlement: { rule: def.rule } });
  }
  const storedPositions = new Set((await repo.byKey('betting_market_positions', positionKeys)).map((p) => p.key));
  const positions: NonNullable<Dataset['betting_market_positions']> = [];
  for (const key of positionKeys) if (!storedPositions.has(key)) positions.push({ id: await resolver.allocate('betting_market_positions'), key, name: POSITION_NAMES[key] });
  return { marketIds, dataset: { betting_markets: markets, betting_market_positions: positions, event_periods: resolver.extra.event_periods } };
}

/**
 * The price points of every selection, newest stored point excluded, as rounds: round k holds each selection's k-th new point.
 * A source gives one line per book and side (football-data's handicap, a feed's spread): the line
 * of the side's newest point is its main line, and a row at another line is written an alternate,
 * so that the board shows where the book stands now and not a line it has moved from.
 */
async function priceRounds(repo: SourcesRepository, resolver: Resolver, matched: ReadonlyArray<{ row: SourceRow; event: EventItem }>, marketIds: ReadonlyMap<SourceMarket, number>): Promise<OddsItem[][]> {
  const sideKey = (o: { event_id: number; operator_id: number; betting_market_id: number; position: string }) => `${o.event_id}/${o.operator_id}/${o.betting_market_id}/${o.position}`;
  const naturalKey = (o: { event_id: number; operator_id: number; betting_market_id: number; position: string; line: number | null }) => `${sideKey(o)}/${o.line ?? ''}`;
  const stored = new Map<string, StoredOdds>((await repo.oddsOfEvents(matched.map((m) => m.event.id))).map((o) => [naturalKey(o), o]));
  const points = new Map<string, { base: Omit<OddsItem, 'price_decimal' | 'updated_at' | 'is_main'>; after: number; storedPrice?: number; prices: Map<number, SourcePrice> }>();
  for (const { row, event } of matched) {
    for (const price of row.prices) {
      const fields = { event_id: event.id, operator_id: await resolver.operator(price.book), betting_market_id: marketIds.get(price.market) ?? 0, position: price.position, line: price.line ?? null };
      const key = naturalKey(fields);
      let selection = points.get(key);
      if (selection === undefined) {
        const known = stored.get(key);
        selection = { base: { id: known?.id ?? (await resolver.allocate('odds')), ...fields }, after: known?.updated_at ?? Number.NEGATIVE_INFINITY, storedPrice: known?.price_decimal, prices: new Map() };
        points.set(key, selection);
      }
      const at = Date.parse(price.at);
      // Not applied again: a point before the stored one, or at its instant with its price (decision 0297). At its instant
      // with another price it is a correction (a file's instants are fixed by the kick-off, so a corrected cell comes back at the same one).
      // Of two at one instant, the later read.
      if (at > selection.after || (at === selection.after && price.price !== selection.storedPrice)) selection.prices.set(at, price);
    }
  }
  const mainLines = mainLinesOf(stored, points, sideKey, naturalKey);
  const rounds: OddsItem[][] = [];
  for (const [key, { base, prices }] of points) {
    const isMain = mainLines.get(sideKey(base)) === key;
    [...prices.entries()].sort(([a], [b]) => a - b).forEach(([at, price], round) => {
      (rounds[round] ??= []).push({ ...base, is_main: isMain, price_decimal: price.price, updated_at: new Date(at).toISOString() });
    });
  }
  // A stored main row this batch moved the book off: written again as it stands, an alternate (no price change, so no history).
  for (const [key, o] of stored) {
    if (!o.is_main || points.get(key)?.prices.size || !mainLines.has(sideKey(o)) || mainLines.get(sideKey(o)) === key) continue;
    const { id, event_id, operator_id, betting_market_id, position, line, price_decimal } = o;
    (rounds[0] ??= []).push({ id, event_id, operator_id, betting_market_id, position, line, price_decimal, status: o.status as OddsItem['status'], is_main: false, updated_at: new Date(o.updated_at).toISOString() });
  }
  return rounds;
}

/** Per book and side this batch prices, the natural key of the row holding its newest point (stored or new). */
function mainLinesOf<P extends { after: number; prices: ReadonlyMap<number, unknown>; base: { event_id: number; operator_id: number; betting_market_id: number; position: string } }>(
  stored: ReadonlyMap<string, StoredOdds>,
  points: ReadonlyMap<string, P>,
  sideKey: (o: P['base']) => string,
  naturalKey: (o: StoredOdds) => string,
): Map<string, string> {
  const newest = new Map<string, { key: string; at: number }>();
  const consider = (side: string, key: string, at: number) => {
    const known = newest.get(side);
    if (known === undefined || at > known.at) newest.set(side, { key, at });
  };
  for (const [key, p] of points) consider(sideKey(p.base), key, Math.max(p.after, ...p.prices.keys()));
  for (const o of stored.values()) if (newest.has(sideKey(o))) consider(sideKey(o), naturalKey(o), o.updated_at);
  return new Map([...newest].map(([side, { key }]) => [side, key]));
}

function dedupeById<T extends { id: number }>(items: readonly T[]): T[] {
  return [...new Map(items.map((item) => [item.id, item])).values()];
}
