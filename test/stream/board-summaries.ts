import type { BoardChange } from '../../src/modules/odds/index.js';
import type { PageBody } from '../helpers/responses.js';

/** A board event's data (docs/api.md#live-odds-stream), as the server types it. */
export type BoardEvent = BoardChange;

export interface BoardItem {
  event_id: number;
  betting_market: { id: number };
  event_period_id: number | null;
  player_id: number | null;
  position: string;
  is_main: boolean;
  line: number | null;
  event_betting_market_position_id: number | null;
  best: { price_decimal: number; operators: Array<{ id: number }> };
  consensus: { price_decimal: number; line: number | null };
  fair: { consensus: { probability: number | null; price: number | null } };
}

type Summary = Omit<BoardEvent, 'changed'>;

/** The board of some events (every book, decimal, multiplicative) as board events summarise it, by selection. */
export async function boardSummaries(page: (body: Record<string, unknown>) => Promise<PageBody<BoardItem>>, eventIds: number[]): Promise<Map<string, Summary>> {
  const out = new Map<string, Summary>();
  for (let p = 1; ; p++) {
    const res = await page({ event_ids: eventIds, include_alt_lines: true, page: p, page_size: 100 });
    for (const i of res.results) {
      const { probability, price } = i.fair.consensus;
      out.set(`${i.event_id}|${i.betting_market.id}|${i.event_period_id}|${i.player_id}|${i.is_main}|${i.line}|${i.position}`, {
        event_id: i.event_id,
        betting_market_id: i.betting_market.id,
        event_period_id: i.event_period_id,
        player_id: i.player_id,
        position: i.position,
        is_main: i.is_main,
        line: i.line,
        event_betting_market_position_id: i.event_betting_market_position_id,
        best: { price_decimal: i.best.price_decimal, operator_ids: i.best.operators.map((o) => o.id) },
        consensus: { price_decimal: i.consensus.price_decimal, line: i.consensus.line },
        fair: probability === null || price === null ? null : { probability, price },
      });
    }
    if (p >= res.total_pages) return out;
  }
}

/** The board events a change from `before` to `after` must send, by position. */
export function expectedBoardEvents(before: Map<string, Summary>, after: Map<string, Summary>): BoardEvent[] {
  const out: BoardEvent[] = [];
  for (const key of new Set([...before.keys(), ...after.keys()])) {
    const a = before.get(key);
    const b = after.get(key);
    const item = b ?? a;
    if (item === undefined) continue;
    const changed = (['best', 'consensus', 'fair'] as const).filter((part) => JSON.stringify(a?.[part] ?? null) !== JSON.stringify(b?.[part] ?? null));
    if (changed.length > 0) out.push({ ...item, best: b?.best ?? null, consensus: b?.consensus ?? null, fair: b?.fair ?? null, changed });
  }
  return out.sort((x, y) => x.position.localeCompare(y.position));
}
