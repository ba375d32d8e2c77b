/**
 * What a position's text says: a side (`home`, `over`), or a subject with a side (`Boston Celtics
 * over`: a team total; `Jayson Tatum over`: a prop), or a subject alone (`Jayson Tatum`: to score).
 * Shared by grading, which reads the subject to find the team or the player, and by the pricing,
 * whose markets are one subject's outcomes.
 */

const SIDES = new Set(['home', 'away', 'draw', 'over', 'under', 'yes', 'no']);

/** A position as its subject (lower-cased, '' for none) and its side word, when it ends with one. */
export function splitPosition(position: string): { subject: string; side: string | null } {
  const text = position.trim();
  const last = text.slice(text.lastIndexOf(' ') + 1).toLowerCase();
  if (!SIDES.has(last)) return { subject: text.toLowerCase(), side: null };
  return { subject: text.slice(0, text.length - last.length).trim().toLowerCase(), side: last };
}

/** True for a position that is a side alone (`over`, `home`): it names no team or player. */
export function isSideOnly(position: string): boolean {
  const { subject, side } = splitPosition(position);
  return side !== null && subject === '';
}

/**
 * Whose outcome a row prices, as far as its market goes (docs/data.md#the-odds-board): the player
 * when the row names one by id, else the subject its position names before a side (each team of a
 * team total is a market of its own), else nobody (`home`/`away`, `over`/`under` of the game, or
 * outcomes named by a team or player alone, which are one market together).
 */
export function marketSubjectOf(row: { position: string; player_id: number | null }): string {
  if (row.player_id !== null) return `p${row.player_id}`;
  const { subject, side } = splitPosition(row.position);
  return side === null ? '' : subject;
}
