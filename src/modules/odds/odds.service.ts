import type { Kysely } from 'kysely';
import { eventKindsOf } from '../../shared/event-kinds.js';
import type { EventKind } from '../../platform/db/schema.js';
import type { Schema } from '../../platform/db/schema.js';
import { ApiError } from '../../platform/errors.js';
import type { ListSource } from '../../platform/lists/paged-lists.js';
import type { DeepLinks } from '../../shared/deep-links.js';
import { idSet, keySet } from '../../shared/filters.js';
import { type OddsFormat, priceIn } from '../../shared/odds-format.js';
import type { KeyResolver } from '../references/index.js';
import { type AsOfCheck, instantOf, itemsKeyAt, oddsItemAt } from './as-of.js';
import { statesAt } from './as-of.repository.js';
import { createOddsRepository } from './odds.repository.js';
import type { OddsByEventBody, OddsItem } from './odds.schemas.js';

/** Odds: the odds of one event, by operator and betting market. */
export interface OddsService {
  /** An event's odds by id, as a paged list in the format asked (POST /v1/odds/upcoming-odds-by-event). */
  byEvent: ListSource<OddsFilters, OddsItem> & { filters(body: OddsByEventBody): OddsFilters };
}

/**
 * An event's odds filters; operator_ids wins over operator_keys (dropped when ids are given). The
 * format is part of them: pages are rendered per format, from items cached once.
 */
export interface OddsFilters {
  e: number;
  o: number[] | null;
  ok: string[] | null;
  m: number[] | null;
  f: OddsFormat | null;
  p: number[] | null;
  pe: Array<number | null> | null;
  a: boolean;
  /** include_deeplinks. */
  dl: boolean;
  /** as_of, epoch ms; null: now. */
  t: number | null;
  /** `event_kinds` (default matchups only): a competition's odds are 404 unless asked for. */
  k: EventKind[];
}

/** Period ids sorted without repeats (the full game, null, first), so that equal filters share a cache entry. */
export function periodSet(ids: ReadonlyArray<number | null> | undefined): Array<number | null> | undefined {
  if (!ids || ids.length === 0) return undefined;
  const numbers = idSet(ids.filter((id) => id !== null)) ?? [];
  return ids.includes(null) ? [null, ...numbers] : numbers;
}

export function createOddsService(deps: { db: Kysely<Schema>; keys: KeyResolver; checkAsOf: AsOfCheck }): OddsService {
  const { db, keys, checkAsOf } = deps;
  const repository = createOddsRepository(deps.db);

  const byEvent: OddsService['byEvent'] = {
    name: 'odds',

    filters(body) {
      const operatorIds = idSet(body.operator_ids);
      return {
        e: body.event_id,
        o: operatorIds ?? null,
        ok: operatorIds ? null : (keySet(body.operator_keys) ?? null),
        m: idSet(body.betting_market_ids) ?? null,
        f: body.odds_format ?? null,
        p: idSet(body.player_ids) ?? null,
        pe: periodSet(body.event_period_ids) ?? null,
        a: body.include_alt_lines ?? true,
        dl: body.include_deeplinks ?? false,
        t: instantOf(body.as_of),
        k: eventKindsOf(body.event_kinds),
      };
    },

    /** The odds of one event, by id; as of an instant, the rows priced then (suspended or not). */
    async ids({ e: eventId, o, ok, m, p, pe, a, t, k }) {
      if (t !== null) await checkAsOf(t);
      const operatorIds = o ?? (ok ? idSet(await Promise.all(ok.map((k) => keys.resolve('operator', k, 'operator_keys')))) : undefined);
      // Checked inside the once-per-version computation; a 404 is not cached.
      if (!(await repository.eventExists(eventId, k))) throw new ApiError('NOT_FOUND', `no event with event_id ${eventId}`);
      const rows = { playerIds: p ?? undefined, periodIds: pe ?? undefined, altLines: a };
      const ids = await repository.ids({ eventId, operatorIds, bettingMarketIds: m ?? undefined, rows });
      if (t === null) return ids;
      const states = await statesAt(db, ids, t);
      return ids.filter((id) => states.has(id));
    },

    async items(ids, { t }) {
      const items = await repository.items(ids);
      if (t === null) return items;
      const states = await statesAt(db, ids, t);
      return new Map([...items].flatMap(([id, item]) => {
        const state = states.get(id);
        return state === undefined ? [] : [[id, oddsItemAt(item, state)] as const];
      }));
    },

    itemsKey: ({ t }) => itemsKeyAt(t),

    /** With odds_format, `price` is the price in that format (without, the v1 object: decision 0111). */
    // The links are loaded with every item and shown only when asked (decision 0111: nothing new unasked).
    view: (item, { f, dl }) => {
      const shown = dl ? item : withoutDeepLinks(item);
      return f === null ? shown : { ...shown, price: priceIn(f, item.price_decimal) };
    },
  };

  return { byEvent };
}

/** An item without its deep links. */
export function withoutDeepLinks<T extends Partial<DeepLinks>>(item: T): Omit<T, keyof DeepLinks> {
  const { bet_web_deep_link_url: _web, bet_ios_deep_link_url: _ios, bet_android_deep_link_url: _android, ...rest } = item;
  return rest;
}
