/** How `search` compares with a name or a key (Odditt's `search_mode`). */
export const SEARCH_MODES = ['contains', 'starts_with', 'exact'] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

export interface Search {
  /** Lower-cased: a search compares without regard to case. */
  text: string;
  mode: SearchMode;
}

/** An empty search matches everything, exactly like no search. */
export function searchOf(search: string | undefined, mode: SearchMode): Search | null {
  return search === undefined || search === '' ? null : { text: search.toLowerCase(), mode };
}

const COMPARE: Readonly<Record<SearchMode, (value: string, text: string) => boolean>> = {
  contains: (value, text) => value.includes(text),
  starts_with: (value, text) => value.startsWith(text),
  exact: (value, text) => value === text,
};

/** Whether any of `values` (a name, a key, a code) holds the search, starts with it or is it, as its mode says. */
export function matches(search: Search | null, ...values: string[]): boolean {
  if (search === null) return true;
  const compare = COMPARE[search.mode];
  return values.some((value) => compare(value.toLowerCase(), search.text));
}
