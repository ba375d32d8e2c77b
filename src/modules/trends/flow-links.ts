import { type DeepLinks, deepLinksOf } from '../../shared/deep-links.js';
import type { TrendsRepository } from './repository/index.js';
import type { FlowLegItem } from './trends.schemas.js';

/**
 * A flow's deep links come from the one operator a request names: its odds row of the flow's
 * selection, through its templates (docs/data.md#deep-links). Items are cached once for every
 * request, so each carries the links of every operator with templates that prices its selection,
 * under a symbol (never serialised), and the view picks the operator asked.
 */
const OPERATOR_LINKS = Symbol('operator deep links');

type WithLinks = FlowLegItem & { [OPERATOR_LINKS]?: ReadonlyMap<string, DeepLinks> };

const NO_LINKS: DeepLinks = { bet_web_deep_link_url: null, bet_ios_deep_link_url: null, bet_android_deep_link_url: null };

/** Gives each item the links of every operator with templates that prices its selection, by operator id and by key. */
export async function attachOperatorLinks(repository: Pick<TrendsRepository, 'operatorLinkRows'>, items: Iterable<FlowLegItem>): Promise<void> {
  const bySelection = new Map<number, WithLinks[]>();
  for (const item of items) {
    const selection = item.event_betting_market_position_id;
    if (selection !== null) bySelection.set(selection, [...(bySelection.get(selection) ?? []), item]);
  }
  const links = new Map<number, Map<string, DeepLinks>>();
  for (const r of await repository.operatorLinkRows([...bySelection.keys()])) {
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
  for (const [selection, found] of links) for (const item of bySelection.get(selection) ?? []) item[OPERATOR_LINKS] = found;
}

/** The links of the one operator a request names (by id or by key); all null when it has none. */
export function operatorLinks(item: FlowLegItem, operator: { operator_ids?: readonly number[]; operator_keys?: readonly string[] }): DeepLinks {
  const id = operator.operator_ids?.[0];
  const name = id === undefined ? `key:${operator.operator_keys?.[0] ?? ''}` : `id:${id}`;
  return (item as WithLinks)[OPERATOR_LINKS]?.get(name) ?? NO_LINKS;
}
