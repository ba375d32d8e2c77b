import type { Kysely, SelectQueryBuilder } from 'kysely';
import { whereEventKinds } from '../../platform/db/event-kinds.js';
import { withMarketOf } from '../../platform/db/event-selection.js';
import type { Schema } from '../../platform/db/schema.js';
import { americanOf, impliedProbabilityOf } from '../../shared/odds-format.js';
import { deepLinksOf, type DeepLinkTemplates } from '../../shared/deep-links.js';
import { iso } from '../../shared/wire.js';
import type { OddsItem } from './odds.schemas.js';

/** The odds' queries: an event's odds ids, whether the event exists, and the items the list shows. */
export interface OddsRepository {
  /** Ids of an event's odds, by id (the odds_event_idx order). */
  ids(query: OddsQuery): Promise<number[]>;
  /** Whether the event an odds list is about exists, of the kinds asked (an unknown event is 404, not an empty list). */
  eventExists(id: number, kinds: readonly string[]): Promise<boolean>;
  /** Odds items by primary key. */
  items(ids: readonly number[]): Promise<Map<number, OddsItem>>;
}

export interface OddsQuery {
  eventId: number;
  /** undefined: every operator. */
  operatorIds: readonly number[] | undefined;
  bettingMarketIds: readonly number[] | undefined;
  rows: OddsRowFilter;
}

/** What an odds row prices: the player and period filters, and whether alternate lines count. */
export interface OddsRowFilter {
  playerIds: readonly number[] | undefined;
  /** null in the list: the full game (rows without a period). */
  periodIds: ReadonlyArray<number | null> | undefined;
  altLines: boolean;
}

/** Narrows a select from `odds` (not aliased) to the rows a filter keeps. */
export function whereOddsRows<QB extends SelectQueryBuilder<Schema, 'odds', object>>(select: QB, filter: OddsRowFilter): QB {
  let narrowed = select;
  if (filter.playerIds) narrowed = narrowed.where('odds.player_id', 'in', filter.playerIds) as QB;
  const periods = filter.periodIds;
  if (periods) {
    const ids = periods.filter((p) => p !== null);
    narrowed = narrowed.where((eb) =>
      eb.or([...(ids.length > 0 ? [eb('odds.event_period_id', 'in', ids)] : []), ...(ids.length < periods.length ? [eb('odds.event_period_id', 'is', null)] : [])]),
    ) as QB;
  }
  if (!filter.altLines) narrowed = narrowed.where('odds.is_main', '=', 1) as QB;
  return narrowed;
}

export function createOddsRepository(db: Kysely<Schema>): OddsRepository {
  return {
    /** Ids of an event's odds, by id (the odds_event_idx order). */
    async ids(query: OddsQuery): Promise<number[]> {
      let select = db.selectFrom('odds').select('id').where('event_id', '=', query.eventId);
      if (query.operatorIds) select = select.where('operator_id', 'in', query.operatorIds);
      if (query.bettingMarketIds) select = select.where('betting_market_id', 'in', query.bettingMarketIds);
      const rows = await whereOddsRows(select, query.rows).orderBy('id').execute();
      return rows.map((r) => Number(r.id));
    },

    /** Whether the event an odds list is about exists (an unknown event is 404, not an empty list). */
    async eventExists(id: number, kinds: readonly string[]): Promise<boolean> {
      const row = await whereEventKinds(db.selectFrom('events').select('id').where('id', '=', id), 'events.kind', kinds).executeTakeFirst();
      return row !== undefined;
    },

    /** Odds items by primary key. */
    async items(ids: readonly number[]): Promise<Map<number, OddsItem>> {
      const rows = await db
        .selectFrom('odds as o')
        .leftJoin('operators as op', 'op.id', 'o.operator_id')
        .leftJoin('odds_outrights as x', 'x.odds_id', 'o.id')
        .$call(withMarketOf('o'))
        .select(['x.participant_id', 'x.rival_ids', 'x.each_way_fraction', 'x.each_way_places'])
        .select([
          'o.player_id', 'o.event_period_id', 'o.is_main', 'o.is_live', 'o.id', 'o.event_id', 'o.operator_id', 'o.betting_market_id',
          'o.position', 'o.line', 'o.price_decimal', 'o.status', 'o.updated_at', 'o.selection_id', 'o.operator_selection_id',
          'op.bet_web_deep_link_template', 'op.bet_ios_deep_link_template', 'op.bet_android_deep_link_template', 'op.key as operator_key', 'op.name as operator_name',
        ])
        .where('o.id', 'in', ids)
        .execute();
      const items = new Map<number, OddsItem>();
      for (const r of rows) {
        const id = Number(r.id);
        const decimal = Number(r.price_decimal);
        items.set(id, {
          id,
          event_id: Number(r.event_id),
          operator: { id: Number(r.operator_id), key: r.operator_key ?? '', name: r.operator_name ?? '' },
          betting_market: { id: Number(r.betting_market_id), key: r.market_key ?? '', name: r.market_name ?? '' },
          event_betting_market_position_id: r.selection_id === null ? null : Number(r.selection_id),
          position: r.position,
          line: r.line === null ? null : Number(r.line),
          price: { american: americanOf(decimal), decimal, implied_probability: impliedProbabilityOf(decimal) },
          price_decimal: decimal,
          status: r.status,
          updated_at: iso(Number(r.updated_at)),
          ...oddsDetailsOf(r),
          ...outrightDetailsOf(r),
          ...deepLinksOf(templatesOf(r), {
            operator_selection_id: r.operator_selection_id,
            event_id: Number(r.event_id),
            betting_market_id: Number(r.betting_market_id),
            event_betting_market_position_id: r.selection_id === null ? null : Number(r.selection_id),
            position: r.position,
            line: r.line === null ? null : Number(r.line),
          }),
        });
      }
      return items;
    },
  };
}

/** The stored details of a row as the wire says them: ids as numbers, flags as booleans. */
export function oddsDetailsOf(row: { player_id: number | string | null; event_period_id: number | string | null; is_main: number; is_live: number }) {
  return {
    player_id: row.player_id === null ? null : Number(row.player_id),
    event_period_id: row.event_period_id === null ? null : Number(row.event_period_id),
    is_main: Number(row.is_main) === 1,
    is_live: Number(row.is_live) === 1,
  };
}

/** What a competition's row says of its participant, only on such a row: a matchup's item stays as it always was. */
export function outrightDetailsOf(row: { participant_id: number | string | null; rival_ids: string | null; each_way_fraction: number | null; each_way_places: number | null }) {
  if (row.participant_id === null) return {};
  return {
    participant_id: Number(row.participant_id),
    ...(row.rival_ids === null ? {} : { rival_participant_ids: row.rival_ids.split(',').map(Number) }),
    ...(row.each_way_fraction === null || row.each_way_places === null ? {} : { each_way: { fraction: Number(row.each_way_fraction), places: Number(row.each_way_places) } }),
  };
}

/** An operator's templates as a joined row has them (null when the operator is missing). */
export function templatesOf(row: { [K in keyof DeepLinkTemplates]: string | null }): DeepLinkTemplates {
  return {
    bet_web_deep_link_template: row.bet_web_deep_link_template,
    bet_ios_deep_link_template: row.bet_ios_deep_link_template,
    bet_android_deep_link_template: row.bet_android_deep_link_template,
  };
}
