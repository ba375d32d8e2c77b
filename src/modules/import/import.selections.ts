import { chunksOf } from '../../platform/chunks.js';
import { lineKeyOf } from '../../platform/db/migrations.js';
import { isSideOnly } from '../../shared/positions.js';
import type { SelectionsTable } from '../../platform/db/schema.js';
import { Problems } from './import.checks.js';
import type { ImportRepository } from './import.repository.js';
import type { Dataset } from './import.schemas.js';
import { ODDS_CHUNK, type StoredOdds } from './import.stored-odds.js';
import { numberOrNull } from '../../platform/db/column-values.js';

type OddsItem = NonNullable<Dataset['odds']>[number];
type FlowItem = NonNullable<Dataset['flows']>[number];

/** What names a selection: two odds rows (or a flow and an odds row) with the same key bet on the same thing. */
type SelectionKey = Omit<SelectionsTable, 'id'>;

const nameOf = (k: Omit<SelectionKey, 'line'>): string =>
  JSON.stringify([k.event_id, k.betting_market_id, k.period, k.position, k.line_key, k.player]);

function keyOf(
  event_id: number,
  betting_market_id: number,
  position: string,
  line: number | null | undefined,
  period?: number | null,
  player?: number | null,
): SelectionKey {
  // The full game keeps the empty period it had before rows named one, so no stored selection is
  // renamed; a half or a quarter is another selection. The player is in the key only where the
  // position names no subject (`over` alone): there two players' props are otherwise one selection.
  // A position that names its player keeps the empty player it had, so stored props keep their ids
  // (migration 0026 gave the stored side-only ones their player).
  const periodKey = period === null || period === undefined ? '' : String(period);
  const playerKey = player === null || player === undefined || !isSideOnly(position) ? '' : String(player);
  return { event_id, betting_market_id, period: periodKey, position, line: line ?? null, line_key: lineKeyOf(line), player: playerKey };
}

/**
 * A competition's row is keyed by its participant (and a matchup's rivals) in the key's subject part,
 * `p12` or `p12>34,56` (decision 0325): a matchup's subject is empty or a player id, never one of these.
 */
export function participantKeyOf(participantId: number, rivalIds: readonly number[] = []): string {
  return rivalIds.length === 0 ? `p${participantId}` : `p${participantId}>${[...rivalIds].sort((a, b) => a - b).join(',')}`;
}

const oddsKey = (o: OddsItem): SelectionKey => {
  const key = keyOf(o.event_id, o.betting_market_id, o.position, o.line, o.event_period_id, o.player_id);
  return o.participant_id === null || o.participant_id === undefined ? key : { ...key, player: participantKeyOf(o.participant_id, o.rival_participant_ids) };
};

/**
 * The selection a single flow bets on: its market with its position (or its over/under side) and
 * its line. On a side alone, its focus player's selection when one is known (`known`), else the
 * one without a player, as before selections had players: a feed whose odds rows name no player
 * keeps its flows on its rows' selection.
 */
function flowSelectionKey(flow: FlowItem, known: (key: SelectionKey) => boolean): SelectionKey | undefined {
  const position = flow.position ?? flow.split;
  if ((flow.leg_ids ?? []).length > 0 || flow.betting_market_id === undefined || flow.betting_market_id === null || !position) return undefined;
  const withoutPlayer = keyOf(flow.event_id, flow.betting_market_id, position, flow.line);
  if (flow.focus_entity_type !== 'player') return withoutPlayer;
  const ofPlayer = keyOf(flow.event_id, flow.betting_market_id, position, flow.line, null, flow.focus_entity_id);
  return known(ofPlayer) ? ofPlayer : withoutPlayer;
}

/**
 * Gives every selection of the dataset its id, in the import's transaction (imports run one at a
 * time, so the next free id cannot be taken by another): a stored selection keeps the id it has,
 * whatever the dataset says; a new one takes the feed's `event_betting_market_position_id` when the
 * odds row sends one, else the next id after the largest stored. A feed id already naming another
 * selection is refused (422, nothing written). Returns the id per odds id and per flow id.
 */
export async function assignSelections(
  repo: ImportRepository,
  stored: StoredOdds,
  odds: readonly OddsItem[],
  flows: readonly FlowItem[],
): Promise<{ ofOdds: Map<number, number>; ofFlows: Map<number, number> }> {
  const kept = await keptSelections(stored, odds);
  const wanted = new Map<string, { key: SelectionKey; feedId: number | undefined; field: string }>();
  const want = (key: SelectionKey, feedId: number | null | undefined, field: string) => {
    const name = nameOf(key);
    const known = wanted.get(name);
    if (known === undefined) wanted.set(name, { key, feedId: feedId ?? undefined, field });
    else if (known.feedId === undefined && feedId !== null && feedId !== undefined) wanted.set(name, { key, feedId, field });
  };
  const moving = odds.filter((o) => !kept.has(o.id));
  odds.forEach((o, index) => {
    if (!kept.has(o.id)) want(oddsKey(o), o.event_betting_market_position_id, `odds[${index}]`);
  });
  const ids = await storedIds(repo, [...new Set([...moving.map((o) => o.event_id), ...flows.map((f) => f.event_id)])]);
  const known = (key: SelectionKey) => wanted.has(nameOf(key)) || ids.has(nameOf(key));
  const flowKeys = new Map<number, SelectionKey>();
  for (const f of flows) {
    const key = flowSelectionKey(f, known);
    if (key === undefined) continue;
    flowKeys.set(f.id, key);
    want(key, undefined, '');
  }

  const fresh = [...wanted.entries()].filter(([name]) => !ids.has(name));
  const feedIds = fresh.flatMap(([, w]) => (w.feedId === undefined ? [] : [w.feedId]));
  const taken = new Set(await repo.takenSelectionIds(feedIds));
  const problems = new Problems();
  const claimed = new Set<number>();
  for (const [, w] of fresh) {
    if (w.feedId === undefined) continue;
    if (taken.has(w.feedId) || claimed.has(w.feedId)) {
      problems.add(`${w.field}.event_betting_market_position_id`, 'unique', 'names another selection (event, market, position, line) already');
    }
    claimed.add(w.feedId);
  }
  problems.throwIfAny();

  let next = fresh.length === 0 ? 0 : await repo.maxSelectionId();
  for (const id of claimed) next = Math.max(next, id);
  next += 1;
  const rows: Array<SelectionKey & { id: number }> = [];
  for (const [name, w] of fresh) {
    const id = w.feedId ?? next++;
    ids.set(name, id);
    rows.push({ id, ...w.key });
  }
  await repo.insertSelections(rows);

  const idOf = (key: SelectionKey) => ids.get(nameOf(key));
  const ofOdds = kept;
  for (const o of moving) {
    const id = idOf(oddsKey(o));
    if (id !== undefined) ofOdds.set(o.id, id);
  }
  const ofFlows = new Map<number, number>();
  for (const [flowId, key] of flowKeys) {
    const id = idOf(key);
    if (id !== undefined) ofFlows.set(flowId, id);
  }
  return { ofOdds, ofFlows };
}

/** The stored selections of these events, by key name. */
async function storedIds(repo: ImportRepository, eventIds: readonly number[]): Promise<Map<string, number>> {
  return new Map((await repo.selectionsOfEvents(eventIds)).map((selection) => [nameOf(selection), selection.id]));
}


/**
 * The selection of every odds row stored with the key the dataset gives it again (a price move):
 * the one it has, as a selection keeps its id and the import alone points rows at selections. Only
 * the other rows (new, or moved to another line, market or player) need the selections of their events.
 */
async function keptSelections(storedOdds: StoredOdds, odds: readonly OddsItem[]): Promise<Map<number, number>> {
  const kept = new Map<number, number>();
  for (const chunk of chunksOf(odds, ODDS_CHUNK)) {
    const stored = await storedOdds(chunk);
    for (const o of chunk) {
      const r = stored.get(o.id);
      if (r === undefined || r.selection_id === null) continue;
      const key = keyOf(Number(r.event_id), Number(r.betting_market_id), String(r.position), numberOrNull(r.line), numberOrNull(r.event_period_id), numberOrNull(r.player_id));
      if (sameKey(key, oddsKey(o))) kept.set(o.id, Number(r.selection_id));
    }
  }
  return kept;
}

/** Whether two keys name one selection (what nameOf writes out, compared field by field: a feed's batch asks it of every row). */
function sameKey(a: SelectionKey, b: SelectionKey): boolean {
  return (
    a.event_id === b.event_id &&
    a.betting_market_id === b.betting_market_id &&
    a.period === b.period &&
    a.position === b.position &&
    a.line_key === b.line_key &&
    a.player === b.player
  );
}

