/** An empty search matches everything, exactly like no search; a search compares without regard to case. */
export function searchOf(search: string | undefined): string | null {
  return search === undefined || search === '' ? null : search.toLowerCase();
}
