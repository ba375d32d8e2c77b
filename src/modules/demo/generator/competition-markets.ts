import type { Dataset } from '../../import/index.js';
import { outrightPrices, type Simulated, simulate, winChances } from './competition-pricing.js';
import type { CompetitionModel } from './competitions.js';
import type { Random } from './random.js';
import type { OperatorModel } from './references.js';

/**
 * The books' markets of the demo's competitions: each book that prices a competition quotes its
 * winner market (with each-way terms where it offers them), its top-N and podium markets, and a
 * few 2- and 3-way matchups between participants, every row naming its participant.
 */

type OddsItem = NonNullable<Dataset['odds']>[number];

/** One book's quote of one many-outcome market: its rows and the chances they were priced from (a move reprices it). */
export interface OutrightQuote {
  rows: OddsItem[];
  p: number[];
  places: number;
  margin: number;
}

/** The markets of the competitions, by key: the demo's records give them their ids. */
export const OUTRIGHT_MARKETS = [
  { key: 'outright-winner', name: 'Outright Winner', entity_type: 'player', rule: 'winner' },
  { key: 'season-winner', name: 'Season Winner', entity_type: 'team', rule: 'winner' },
  { key: 'top-scorer', name: 'Top Scorer', entity_type: 'player', rule: 'winner' },
  { key: 'top-5-finish', name: 'Top 5 Finish', entity_type: 'player', rule: 'top_5' },
  { key: 'top-10-finish', name: 'Top 10 Finish', entity_type: 'player', rule: 'top_10' },
  { key: 'top-20-finish', name: 'Top 20 Finish', entity_type: 'player', rule: 'top_20' },
  { key: 'podium-finish', name: 'Podium Finish', entity_type: 'player', rule: 'podium' },
  { key: 'head-to-head', name: 'Head to Head', entity_type: 'player', rule: 'participant_matchup' },
  { key: 'three-ball', name: 'Three Ball', entity_type: 'player', rule: 'participant_matchup' },
] as const;
export type OutrightMarketKey = (typeof OUTRIGHT_MARKETS)[number]['key'];

/** How a kind of competition is sold: by how many books, with what overround on the winner market (15 to 40 %), and which place markets. */
const SALES = {
  tournament: { books: 6, winnerMargin: [0.25, 0.37], places: [5, 10, 20], eachWay: { fraction: 0.2, places: [5, 8] } },
  race: { books: 6, winnerMargin: [0.18, 0.28], places: [3, 10], eachWay: { fraction: 0.25, places: [3, 3] } },
  futures: { books: 5, winnerMargin: [0.18, 0.3], places: [], eachWay: undefined },
} as const;
/** A top-N market's overround, per place it pays: thinner than the winner's, as books price them. */
const PLACE_MARGIN = [0.12, 0.2];
/** The 2- and 3-way matchups' overround. */
const MATCHUP_MARGIN = { 2: 0.06, 3: 0.1 } as const;
/** Books that also sell the matchups of a tournament or a race. */
const MATCHUP_BOOKS = 3;

export interface MarketIds {
  of(key: OutrightMarketKey): number;
}

/** The rows of every book's markets of `competition`, ids from `firstId`; the quotes of the winner markets beside them, for the price moves. */
export function competitionOdds(
  random: Random,
  competition: CompetitionModel,
  operators: readonly OperatorModel[],
  markets: MarketIds,
  firstId: number,
): { rows: OddsItem[]; winners: OutrightQuote[] } {
  const sale = SALES[competition.type];
  const { field } = competition;
  const strengths = field.map((f) => f.strength);
  const win = winChances(strengths);
  const simulated: Simulated | undefined = competition.type === 'futures' ? undefined : simulate(random, strengths);
  const books = random.sample(operators, sale.books).sort((a, b) => a.id - b.id);
  const rows: OddsItem[] = [];
  const winners: OutrightQuote[] = [];
  let nextId = firstId;
  const row = (book: OperatorModel, market: OutrightMarketKey, index: number, price: number): OddsItem => {
    const participant = field[index];
    if (participant === undefined) throw new Error(`competition ${competition.id}: no participant ${index}`);
    return {
      id: nextId++,
      event_id: competition.id,
      operator_id: book.id,
      betting_market_id: markets.of(market),
      position: participant.name,
      price_decimal: price,
      status: 'open',
      updated_at: new Date(competition.openedAt).toISOString(),
      participant_id: participant.id,
    };
  };
  const winnerKey: OutrightMarketKey = competition.type !== 'futures' ? 'outright-winner' : competition.participantType === 'team' ? 'season-winner' : 'top-scorer';
  books.forEach((book, b) => {
    const margin = spread(sale.winnerMargin, b, books.length);
    const eachWay = sale.eachWay && b < books.length - 1 ? { fraction: sale.eachWay.fraction, places: random.int(sale.eachWay.places[0], sale.eachWay.places[1]) } : undefined;
    const quote = outrightPrices(win, 1, margin).map((price, i) => ({ ...row(book, winnerKey, i, price), ...(eachWay ? { each_way: eachWay } : {}) }));
    rows.push(...quote);
    winners.push({ rows: quote, p: win, places: 1, margin });
    if (simulated === undefined) return;
    for (const places of sale.places) {
      if (places >= field.length) continue;
      const key: OutrightMarketKey = places === 3 ? 'podium-finish' : places === 5 ? 'top-5-finish' : places === 10 ? 'top-10-finish' : 'top-20-finish';
      rows.push(...outrightPrices(simulated.within(places), places, spread(PLACE_MARGIN, b, books.length)).map((price, i) => row(book, key, i, price)));
    }
    if (b >= MATCHUP_BOOKS) return;
    for (const group of competition.matchups) {
      const chances = simulated.bestOf(group);
      const prices = outrightPrices(chances, 1, MATCHUP_MARGIN[group.length === 2 ? 2 : 3]);
      group.forEach((index, i) => {
        const rivals = group.filter((other) => other !== index).map((other) => field[other]?.id ?? 0);
        rows.push({ ...row(book, group.length === 2 ? 'head-to-head' : 'three-ball', index, prices[i] ?? 2), rival_participant_ids: rivals.sort((x, y) => x - y) });
      });
    }
  });
  return { rows, winners };
}

/** The `b`-th of `count` books' margin within [low, high]: books differ, as real ones do. */
function spread([low, high]: readonly [number, number] | readonly number[], b: number, count: number): number {
  return (low ?? 0) + (((high ?? 0) - (low ?? 0)) * b) / Math.max(1, count - 1);
}

/** A winner market's move (news, money): each runner's chance shifts in log-odds, the book reprices it with the same margin. */
export function movedQuote(random: Random, quote: OutrightQuote, step: number, at: number): NonNullable<Dataset['price_updates']> {
  const shifted = quote.p.map((p) => Math.max(1e-6, p * Math.exp(random.normal() * step)));
  const sum = shifted.reduce((a, x) => a + x, 0);
  const prices = outrightPrices(
    shifted.map((x) => (x / sum) * quote.places),
    quote.places,
    quote.margin,
  );
  return quote.rows.flatMap((row, i) => {
    const price = prices[i] ?? row.price_decimal;
    return price === row.price_decimal ? [] : [{ odds_id: row.id, price_decimal: price, updated_at: new Date(at).toISOString() }];
  });
}
