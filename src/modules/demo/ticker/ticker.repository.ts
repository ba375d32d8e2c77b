import type { ExpressionBuilder, Kysely, Selectable } from 'kysely';
import type { OddsTable, Schema } from '../../../platform/db/schema.js';

/** What the demo ticker reads: which books are the demo's, the demo's events near now, and their prices. */
export interface TickerRepository {
  /** The ids, among `books`, of the operators stored with that id and that key: the demo's own books still there. */
  demoBooks(books: ReadonlyArray<{ id: number; key: string }>): Promise<number[]>;
  /** Scheduled and live events starting in [from, to] that no source names (a source's events are never moved), with their sport's key. */
  eventsBetween(from: number, to: number): Promise<TickerEvent[]>;
  /** The prices of `eventIds` by the books `operatorIds`, by id (a market's sides were made one after the other). */
  pricesOf(eventIds: readonly number[], operatorIds: readonly number[]): Promise<TickerPrice[]>;
  /** The competitions not yet over (scheduled or live) that no source names: their prices move too. */
  openCompetitions(): Promise<number[]>;
  /** The prices of a competition's many-outcome markets (not its matchups between participants) by the books `operatorIds`, by id. */
  outrightPricesOf(eventId: number, operatorIds: readonly number[]): Promise<TickerPrice[]>;
}

export interface TickerEvent {
  id: number;
  leagueId: number;
  sportKey: string;
  /** Epoch ms. */
  start: number;
  status: 'scheduled' | 'live';
  homeTeamId: number;
  awayTeamId: number;
  score: { home: number; away: number } | undefined;
}

export interface TickerPrice {
  id: number;
  eventId: number;
  operatorId: number;
  marketId: number;
  position: string;
  line: number | null;
  playerId: number | null;
  periodId: number | null;
  price: number;
  status: string;
}

export function createTickerRepository(db: Kysely<Schema>): TickerRepository {
  return {
    async demoBooks(books) {
      if (books.length === 0) return [];
      const rows = await db.selectFrom('operators').select(['id', 'key']).where('id', 'in', books.map((b) => b.id)).execute();
      const stored = new Map(rows.map((r) => [Number(r.id), r.key]));
      return books.filter((b) => stored.get(b.id) === b.key).map((b) => b.id);
    },
    async eventsBetween(from, to) {
      const rows = await db
        .selectFrom('events')
        .innerJoin('sports', 'sports.id', 'events.sport_id')
        .select(['events.id', 'events.league_id', 'sports.key as sport_key', 'events.start_time', 'events.status', 'events.home_team_id', 'events.away_team_id', 'events.home_score', 'events.away_score'])
        .where('events.start_time', '>=', from)
        .where('events.start_time', '<=', to)
        .where('events.status', 'in', ['scheduled', 'live'])
        // A competition has no home and away score to play out: its prices move on their own (openCompetitions).
        .where('events.kind', '=', 'matchup')
        .where(notFromASource)
        .orderBy('events.id')
        .execute();
      return rows.map((r) => ({
        id: Number(r.id),
        leagueId: Number(r.league_id),
        sportKey: r.sport_key,
        start: Number(r.start_time),
        status: r.status === 'live' ? 'live' : 'scheduled',
        homeTeamId: Number(r.home_team_id),
        awayTeamId: Number(r.away_team_id),
        score: r.home_score === null || r.away_score === null ? undefined : { home: Number(r.home_score), away: Number(r.away_score) },
      }));
    },
    async pricesOf(eventIds, operatorIds) {
      if (eventIds.length === 0 || operatorIds.length === 0) return [];
      const rows = await db.selectFrom('odds').select(PRICE_COLUMNS).where('event_id', 'in', eventIds).where('operator_id', 'in', operatorIds).orderBy('id').execute();
      return rows.map(priceOf);
    },
    async openCompetitions() {
      const rows = await db.selectFrom('events').select('events.id').where('events.kind', '=', 'competition').where('events.status', 'in', ['scheduled', 'live']).where(notFromASource).orderBy('events.id').execute();
      return rows.map((r) => Number(r.id));
    },
    async outrightPricesOf(eventId, operatorIds) {
      if (operatorIds.length === 0) return [];
      const rows = await db
        .selectFrom('odds')
        .innerJoin('odds_outrights', 'odds_outrights.odds_id', 'odds.id')
        .select(PRICE_COLUMNS)
        .where('odds.event_id', '=', eventId)
        .where('odds.operator_id', 'in', operatorIds)
        .where('odds_outrights.rival_ids', 'is', null)
        .orderBy('odds.id')
        .execute();
      return rows.map(priceOf);
    },
  };
}

const PRICE_COLUMNS = [
  'odds.id',
  'odds.event_id',
  'odds.operator_id',
  'odds.betting_market_id',
  'odds.position',
  'odds.line',
  'odds.player_id',
  'odds.event_period_id',
  'odds.price_decimal',
  'odds.status',
] as const;

function priceOf(r: Pick<Selectable<OddsTable>, 'id' | 'event_id' | 'operator_id' | 'betting_market_id' | 'position' | 'line' | 'player_id' | 'event_period_id' | 'price_decimal' | 'status'>): TickerPrice {
  return {
    id: Number(r.id),
    eventId: Number(r.event_id),
    operatorId: Number(r.operator_id),
    marketId: Number(r.betting_market_id),
    position: r.position,
    line: r.line === null ? null : Number(r.line),
    playerId: r.player_id === null ? null : Number(r.player_id),
    periodId: r.event_period_id === null ? null : Number(r.event_period_id),
    price: Number(r.price_decimal),
    status: r.status,
  };
}

/** Events no source names: a source's events are never moved. */
const notFromASource = ({ not, exists, selectFrom }: ExpressionBuilder<Schema, 'events'>) =>
  not(exists(selectFrom('external_ids').select('external_ids.entity_id').where('external_ids.entity_type', '=', 'event').whereRef('external_ids.entity_id', '=', 'events.id')));
