import { ApiError, validationError } from '../../platform/errors.js';
import { eventKindsOf } from '../../shared/event-kinds.js';
import { MAX_ID } from '../../shared/wire.js';
import type { HistoryRepository, StreamFilter } from '../history/index.js';
import type { KeyResolver } from '../references/index.js';

/**
 * The filter of the stream's and the change cursor's query (`event_ids`, `league_ids`, `event_kinds`) as the
 * history's replay reads it: 404 for an event or league that does not exist, as a follow of
 * nothing would otherwise be mistaken for a quiet one.
 */
export async function filterOf(
  query: { event_ids?: string | undefined; league_ids?: string | undefined; event_kinds?: string | undefined },
  deps: { history: Pick<HistoryRepository, 'unknownEvents'>; keys: KeyResolver },
): Promise<StreamFilter> {
  const eventIds = idsOf(query.event_ids, 'event_ids');
  const leagueIds = idsOf(query.league_ids, 'league_ids');
  const [unknown] = await deps.history.unknownEvents(eventIds);
  if (unknown !== undefined) throw new ApiError('NOT_FOUND', `no event with id ${unknown} (event_ids)`);
  for (const id of leagueIds) await deps.keys.requireId('league', id, 'league_ids');
  return { eventIds, leagueIds, kinds: eventKindsOf(query.event_kinds) };
}

/** `1,2,3` as ids; the schema has checked the form, this the range. */
function idsOf(list: string | undefined, field: string): number[] {
  if (list === undefined) return [];
  const ids = [...new Set(list.split(',').map(Number))];
  if (ids.some((id) => id < 1 || id > MAX_ID)) throw validationError(field, 'maximum', `${field} must be ids from 1 to ${MAX_ID}`);
  return ids;
}
