/** The columns of a stored odds row that a feed's item gives again. */
export const STORED_ODDS_ITEM_COLUMNS = ['id', 'event_id', 'operator_id', 'betting_market_id', 'position', 'line', 'price_decimal', 'player_id', 'event_period_id', 'is_main', 'is_live'] as const;

type StoredRow = Record<(typeof STORED_ODDS_ITEM_COLUMNS)[number], unknown>;

/** A stored odds row as the import's odds item that sends it again (an absent field left out, as a feed sends it). */
export function storedOddsItem(r: StoredRow) {
  return {
    id: Number(r.id),
    event_id: Number(r.event_id),
    operator_id: Number(r.operator_id),
    betting_market_id: Number(r.betting_market_id),
    position: String(r.position),
    ...(r.line === null ? {} : { line: Number(r.line) }),
    price_decimal: Number(r.price_decimal),
    ...(r.player_id === null ? {} : { player_id: Number(r.player_id) }),
    ...(r.event_period_id === null ? {} : { event_period_id: Number(r.event_period_id) }),
    is_main: Number(r.is_main) === 1,
    is_live: Number(r.is_live) === 1,
  };
}
