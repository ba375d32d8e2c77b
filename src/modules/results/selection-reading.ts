import { splitPosition } from '../../shared/positions.js';
import type { SelectionFields } from '../../shared/settlement/rules.js';

/**
 * An odds row's selection read for grading. The feed names a side by its `position` text:
 * `home`, `over`, a team or player name with `over`/`under` (`Boston Celtics over`), or a player
 * alone for a one-sided market (`Jayson Tatum`: to score). The subject before the side names the
 * team of a team total or the player of a prop, unless the row names its player by id.
 */

/** The two sides of the event by the names a position may use (name, key, abbreviation), and its players by name. */
export interface EventSides {
  home: ReadonlySet<string>;
  away: ReadonlySet<string>;
  /** Lower-cased name → player id; a name two players share maps to none. */
  players: ReadonlyMap<string, number | null>;
}

export interface OddsSelection {
  position: string;
  line: number | null;
  /** The row's own player, when the feed names it. */
  playerId?: number | null;
}

export function readSelection(rule: string, stat: string | null, row: OddsSelection, sides: EventSides): SelectionFields {
  const { subject, side: given } = splitPosition(row.position);
  const hasSide = given !== null;
  const last = given ?? '';
  const team = sides.home.has(subject) ? 'home' : sides.away.has(subject) ? 'away' : null;
  // A moneyline or spread may name the team itself as the side; anything else without a side is a "yes".
  const side = hasSide ? last : team ?? 'yes';
  const playerId = row.playerId ?? sides.players.get(subject) ?? null;
  return { rule, side, line: row.line, team, playerId, stat };
}
