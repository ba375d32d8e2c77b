import { Type } from 'typebox';
import { matching } from '../platform/http/validation.js';
import { EVENT_KINDS, type EventKind } from '../platform/db/schema.js';

/**
 * `event_kinds`, the one parameter by which every endpoint that lists events or their odds is asked
 * for competitions as well as matchups (docs/data.md#competitions, decision 0325). Its default is
 * matchups only: a request that does not name it gets exactly the answer it got before competitions
 * existed. A JSON body takes it as an array, a query string as the kinds separated by commas; both
 * are read by `eventKindsOf`, and a repository narrows its events by it with `whereEventKinds`
 * (platform/db/event-kinds.ts).
 */

export const DEFAULT_EVENT_KINDS: readonly EventKind[] = ['matchup'];

const DESCRIPTION =
  'The kinds of events answered: `matchup` (home against away) and `competition` (a tournament, a race, a futures market of N participants: docs/data.md#competitions). ' +
  'Default `matchup` only, the answer of a request that names none.';

/** In a JSON body: `"event_kinds": ["matchup", "competition"]`. */
export const eventKindsProperty = {
  event_kinds: Type.Optional(Type.Array(Type.Enum(EVENT_KINDS), { minItems: 1, maxItems: EVENT_KINDS.length, uniqueItems: true, description: DESCRIPTION })),
};

/** In a query string: `event_kinds=matchup,competition`. */
export const eventKindsQueryProperty = {
  event_kinds: Type.Optional(
    Type.String({ ...matching('^(matchup|competition)(,(matchup|competition))?$', 'event kinds separated by a comma: matchup, competition'), description: DESCRIPTION }),
  ),
};

/** The kinds asked, sorted and without repeats (equal requests, equal filters); the default when none are named. */
export function eventKindsOf(asked: string | readonly string[] | undefined): EventKind[] {
  const named = typeof asked === 'string' ? asked.split(',') : (asked ?? DEFAULT_EVENT_KINDS);
  const kinds = EVENT_KINDS.filter((kind) => named.includes(kind));
  return kinds.length === 0 ? [...DEFAULT_EVENT_KINDS] : kinds;
}

/** Whether competitions are answered. */
export const includesCompetitions = (kinds: readonly string[]): boolean => kinds.includes('competition');
