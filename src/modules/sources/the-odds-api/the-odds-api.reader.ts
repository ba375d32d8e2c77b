import type { RowProblem, SourceBatch, SourceResult, SourceRow } from '../source-batch.js';
import { type Item, type ItemProblems, instant, isItem, itemProblems, list, optionalInstant, text } from './fields.js';
import { readPrices } from './markets.js';
import type { TheOddsApiFormat } from './prices.js';
import { leagueOf } from './sports.js';

/**
 * The answers of The Odds API v4 we read: `odds` (GET /v4/sports/{sport}/odds, an array of
 * events with their bookmakers), `snapshot` (GET /v4/historical/sports/{sport}/odds, the same
 * array under `data` with the snapshot's timestamps), `scores` (GET /v4/sports/{sport}/scores).
 */
export type TheOddsApiKind = 'odds' | 'snapshot' | 'scores';

export interface TheOddsApiOptions {
  /** The `oddsFormat` the request asked for. */
  oddsFormat: TheOddsApiFormat;
  /** Detected from the body when not given: an object with `data` is a snapshot; items with `completed` or `scores` are scores. */
  kind?: TheOddsApiKind;
}

/**
 * One answer of The Odds API read into a source batch: an item with a problem is left out of the
 * rows and listed in the problems (row = its index + 1, column = its field path). A body of the
 * wrong shape is one problem at row 0 (the answer as a whole).
 */
export function readTheOddsApi(body: unknown, options: TheOddsApiOptions): SourceBatch {
  const kind = options.kind ?? detectKind(body);
  const batch: SourceBatch = { source: 'the-odds-api', rows: [], problems: [] };
  const items = kind === 'snapshot' ? snapshotItems(body, batch) : body;
  if (!Array.isArray(items)) {
    batch.problems.push(wholeAnswer(kind === 'snapshot' ? 'data' : '', kind === 'snapshot' ? 'must be an array of events' : 'must be a JSON array of events'));
    return batch;
  }
  items.forEach((item, index) => {
    const problems = itemProblems(index + 1);
    const row = isItem(item) ? readItem(item, kind, options.oddsFormat, problems) : problems.add('', 'must be an object');
    if (row !== undefined && problems.list.length === 0) batch.rows.push(row);
    batch.problems.push(...problems.list);
  });
  return batch;
}

function detectKind(body: unknown): TheOddsApiKind {
  if (isItem(body)) return 'snapshot';
  if (Array.isArray(body) && body.some((item) => isItem(item) && ('completed' in item || 'scores' in item))) return 'scores';
  return 'odds';
}

function wholeAnswer(column: string, message: string): RowProblem {
  return { row: 0, column, message };
}

/** A historical answer's events, with its timestamps kept on the batch. */
function snapshotItems(body: unknown, batch: SourceBatch): unknown {
  if (!isItem(body)) return undefined;
  const problems = itemProblems(0);
  const timestamp = instant(body, 'timestamp', 'timestamp', problems);
  const previous = optionalInstant(body, 'previous_timestamp', 'previous_timestamp', problems);
  const next = optionalInstant(body, 'next_timestamp', 'next_timestamp', problems);
  batch.problems.push(...problems.list);
  if (timestamp !== undefined) batch.snapshot = { timestamp, ...(previous === undefined ? {} : { previous }), ...(next === undefined ? {} : { next }) };
  return body['data'];
}

function readItem(item: Item, kind: TheOddsApiKind, format: TheOddsApiFormat, problems: ItemProblems): SourceRow | undefined {
  const eventKey = text(item, 'id', 'id', problems);
  const sportKey = text(item, 'sport_key', 'sport_key', problems);
  const startTime = instant(item, 'commence_time', 'commence_time', problems);
  const home = text(item, 'home_team', 'home_team', problems);
  const away = text(item, 'away_team', 'away_team', problems);
  if (eventKey === undefined || sportKey === undefined || startTime === undefined || home === undefined || away === undefined) return undefined;
  const sportTitle = typeof item['sport_title'] === 'string' ? item['sport_title'] : undefined;
  const row: SourceRow = { row: problems.row, eventKey, league: leagueOf(sportKey, sportTitle), home, away, startTime, prices: [] };
  if (kind === 'scores') {
    const result = readResult(item, { home, away }, problems);
    return result === undefined ? undefined : { ...row, result };
  }
  const bookmakers = list(item, 'bookmakers', 'bookmakers', problems);
  return bookmakers === undefined ? undefined : { ...row, prices: readPrices(bookmakers, { home, away }, format, problems) };
}

/**
 * A scores item's result: `completed` is final; scores without it are live; no scores (null, as
 * the answer gives a game not started) is scheduled. Each score is a string of digits, named by
 * its team.
 */
function readResult(item: Item, teams: { home: string; away: string }, problems: ItemProblems): SourceResult | undefined {
  const completed = item['completed'];
  if (typeof completed !== 'boolean') return problems.add('completed', completed === undefined ? 'is missing' : 'must be true or false');
  const scores = item['scores'];
  if (scores === null || scores === undefined) return completed ? problems.add('scores', 'a completed game must have its scores') : { status: 'scheduled' };
  if (!Array.isArray(scores)) return problems.add('scores', 'must be an array or null');
  const byTeam = new Map<string, number>();
  scores.forEach((score, i) => {
    const path = `scores[${i}]`;
    if (!isItem(score)) return problems.add(path, 'must be an object');
    const name = text(score, 'name', `${path}.name`, problems);
    const value = score['score'];
    if (typeof value !== 'string' || !/^\d+$/.test(value.trim())) return problems.add(`${path}.score`, 'must be a whole number written as a string');
    if (name === undefined) return undefined;
    if (name !== teams.home && name !== teams.away) return problems.add(`${path}.name`, 'names neither home_team nor away_team');
    byTeam.set(name, Number(value.trim()));
    return undefined;
  });
  const home = byTeam.get(teams.home);
  const away = byTeam.get(teams.away);
  if (home === undefined || away === undefined) return problems.list.length > 0 ? undefined : problems.add('scores', 'must give a score for home_team and away_team');
  return { status: completed ? 'final' : 'live', home, away };
}
