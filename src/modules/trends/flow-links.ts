import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';
import { type DeepLinks, deepLinksOf } from '../../shared/deep-links.js';
import type { FlowLegItem } from './trends.schemas.js';

/**
 * A flow's deep links come from the one operator a request names: its odds row of the flow's
 * selection, through its templates (docs/data.md#deep-links). Items are cached once for every
 * request, so each carries the links of every operator with templates that prices its selection,
 * under a symbol (never serialised), and the view picks the operator asked.
 */
const OPERATOR_LINKS = Symbol('operator deep links');

type WithLinks = FlowLegItem & { [OPERATOR_LINKS]?: ReadonlyMap<string, DeepLinks> };

/** Rows per statement: far below either engine's bind-parameter ceiling. */
const CHUNK = 1_000;

const NO_LINKS: DeepLinks = { bet_web_deep_link_url: null, bet_ios_deep_link_url: null, bet_android_deep_link_url: null };

/** Gives each item the links of every operator with templates that prices its selection, by operator id and by key. */
export async function attachOperatorLinks(db: Kysely<Schema>, items: Iterable<FlowLegItem>): Promise<void> {
  const bySelection = new Map<number, WithLinks[]>();
  for (const item of items) {
    const selection = item.event_betting_market_position_id;
    if (selection !== null) bySelection.set(selection, [...(bySelection.get(selection) ?? []), item]);
  }
  const selections = [...bySelection.keys()];
  const links = new Map<number, Map<string, DeepLinks>>();
  for (let start = 0; start < selections.length; start += CHUNK) {
    const rows = await db
      .selectFrom('odds as o')
      .innerJoin('operators as op', 'op.id', 'o.operator_id')
      .select([
        'o.id', 'o.selection_id', 'o.operator_id', 'op.key', 'o.operator_selection_id', 'o.event_id', 'o.betting_market_id', 'o.position', 'o.line',
        'op.bet_web_deep_link_template', 'op.bet_ios_deep_link_template', 'op.bet_android_deep_link_template',
      ])
      .where('o.selection_id', 'in', selections.slice(start, start + CHUNK))
      .where((eb) =>
        eb.or([eb('op.bet_web_deep_link_template', 'is not', null), eb('op.bet_ios_deep_link_template', 'is not', null), eb('op.bet_android_deep_link_template', 'is not', null)]),
      )
      .orderBy('o.id')
      .execute();
    for (const r of rows) {
      const selection = Number(r.selection_id);
      const own = links.get(selection) ?? new Map<string, DeepLinks>();
      links.set(selection, own);
      // A book that sends one selection twice links to its first row, as the board counts it.
      if (own.has(`id:${r.operator_id}`)) continue;
      const made = deepLinksOf(r, {
        operator_selection_id: r.operator_selection_id,
        event_id: Number(r.event_id),
        betting_market_id: Number(r.betting_market_id),
        event_betting_market_position_id: selection,
        position: r.position,
        line: r.line === null ? null : Number(r.line),
      });
      own.set(`id:${r.operator_id}`, made);
      own.set(`key:${r.key}`, made);
    }
  }
  for (const [selection, found] of links) for (const item of bySelection.get(selection) ?? []) item[OPERATOR_LINKS] = found;
}

/** The links of the one operator a request names (by id or by key); all null when it has none. */
export function operatorLinks(item: FlowLegItem, operator: { operator_ids?: readonly number[]; operator_keys?: readonly string[] }): DeepLinks {
  const id = operator.operator_ids?.[0];
  const name = id === undefined ? `key:${operator.operator_keys?.[0] ?? ''}` : `id:${id}`;
  return (item as WithLinks)[OPERATOR_LINKS]?.get(name) ?? NO_LINKS;
}
