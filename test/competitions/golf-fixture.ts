/**
 * A golf tournament of 64 players and a league-winner futures market of 4 teams, in the native
 * import format (docs/operations.md#competitions), beside the matchups of the import fixture.
 *
 * Finishes of the tournament: 1 player 1; T2 players 2 and 3; 4 player 4; T5 players 5, 6 and 7;
 * then players 8 to 59 at 8 to 59; player 60 withdrew, 61 was disqualified, 62 and 63 never
 * started, 64 has no result.
 */

export const TOURNAMENT = 5001;
export const FUTURES = 5002;
export const PLAYERS = 64;
/** Participant ids: 70000 + n for player n; 80000 + n for the futures' teams. */
export const participant = (n: number) => 70_000 + n;

export const MARKETS = { winner: 901, top5: 902, top10: 903, podium: 904, matchup: 905, leagueWinner: 906 } as const;

const market = (id: number, key: string, rule: string) => ({ id, key, name: key, category: 'outrights', entity_type: 'player', settlement: { rule } });

export function finishOf(n: number): { status: string; position?: number } | null {
  if (n === 1) return { status: 'finished', position: 1 };
  if (n === 2 || n === 3) return { status: 'finished', position: 2 };
  if (n === 4) return { status: 'finished', position: 4 };
  if (n >= 5 && n <= 7) return { status: 'finished', position: 5 };
  if (n <= 59) return { status: 'finished', position: n };
  if (n === 60) return { status: 'withdrawn' };
  if (n === 61) return { status: 'disqualified' };
  if (n <= 63) return { status: 'non_starter' };
  return null;
}

/** The competitions, their participants (without results) and their odds. */
export function competitionsDataset(): Record<string, unknown[]> {
  const players = Array.from({ length: PLAYERS }, (_, i) => ({ id: 60_000 + i + 1, key: `golfer-${i + 1}`, name: `Golfer ${i + 1}`, team_id: 3000 }));
  const winnerOdds = players.map((_, i) => ({
    id: 600_000 + i + 1,
    event_id: TOURNAMENT,
    operator_id: 1,
    betting_market_id: MARKETS.winner,
    position: `Golfer ${i + 1}`,
    price_decimal: 6 + i * 2,
    participant_id: participant(i + 1),
    ...(i < 10 ? { each_way: { fraction: 0.2, places: 5 } } : {}),
  }));
  const top5Odds = players.map((_, i) => ({
    id: 610_000 + i + 1,
    event_id: TOURNAMENT,
    operator_id: 2,
    betting_market_id: MARKETS.top5,
    position: `Golfer ${i + 1}`,
    price_decimal: 2 + i,
    participant_id: participant(i + 1),
  }));
  return {
    sports: [{ id: 3, key: 'golf', name: 'Golf' }],
    leagues: [{ id: 30, key: 'pga-tour', name: 'PGA Tour', sport_id: 3 }],
    teams: [
      { id: 3000, key: 'pga-tour-field', name: 'PGA Tour field', league_id: 30 },
      ...[1, 2, 3, 4].map((n) => ({ id: 8000 + n, key: `club-${n}`, name: `Club ${n}`, league_id: 20 })),
    ],
    players,
    betting_markets: [
      market(MARKETS.winner, 'outright-winner', 'winner'),
      market(MARKETS.top5, 'top-5-finish', 'top_5'),
      market(MARKETS.top10, 'top-10-finish', 'top_10'),
      market(MARKETS.podium, 'podium-finish', 'podium'),
      market(MARKETS.matchup, 'tournament-matchup', 'participant_matchup'),
      { ...market(MARKETS.leagueWinner, 'league-winner', 'winner'), entity_type: 'team' },
    ],
    competitions: [
      { id: TOURNAMENT, league_id: 30, name: 'The Demo Open', type: 'tournament', participant_type: 'player', start_time: '2030-01-05T08:00:00Z', end_time: '2030-01-08T20:00:00Z' },
      { id: FUTURES, league_id: 20, name: 'LaLiga 2029/30 winner', type: 'futures', participant_type: 'team', start_time: '2029-08-15T18:00:00Z', end_time: '2030-05-31T21:00:00Z' },
    ],
    competition_participants: [
      ...players.map((p, i) => ({ id: participant(i + 1), competition_id: TOURNAMENT, player_id: p.id })),
      ...[1, 2, 3, 4].map((n) => ({ id: 80_000 + n, competition_id: FUTURES, team_id: 8000 + n })),
    ],
    odds: [
      ...winnerOdds,
      ...top5Odds,
      { id: 620_001, event_id: TOURNAMENT, operator_id: 1, betting_market_id: MARKETS.podium, position: 'Golfer 2', price_decimal: 4, participant_id: participant(2) },
      { id: 620_002, event_id: TOURNAMENT, operator_id: 1, betting_market_id: MARKETS.podium, position: 'Golfer 5', price_decimal: 6, participant_id: participant(5) },
      { id: 620_003, event_id: TOURNAMENT, operator_id: 1, betting_market_id: MARKETS.top10, position: 'Golfer 62', price_decimal: 9, participant_id: participant(62) },
      { id: 630_001, event_id: TOURNAMENT, operator_id: 1, betting_market_id: MARKETS.matchup, position: 'Golfer 2', price_decimal: 1.9, participant_id: participant(2), rival_participant_ids: [participant(3)] },
      { id: 630_002, event_id: TOURNAMENT, operator_id: 1, betting_market_id: MARKETS.matchup, position: 'Golfer 4', price_decimal: 2.6, participant_id: participant(4), rival_participant_ids: [participant(6), participant(5)] },
      { id: 630_003, event_id: TOURNAMENT, operator_id: 1, betting_market_id: MARKETS.matchup, position: 'Golfer 1', price_decimal: 1.5, participant_id: participant(1), rival_participant_ids: [participant(62)] },
      { id: 640_001, event_id: FUTURES, operator_id: 1, betting_market_id: MARKETS.leagueWinner, position: 'Club 1', price_decimal: 2.5, participant_id: 80_001 },
    ],
  };
}

/** The tournament's results, and its status final. */
export function resultsDataset(): Record<string, unknown[]> {
  const base = competitionsDataset();
  return {
    competitions: [{ ...(base.competitions?.[0] as object), status: 'final' }],
    competition_participants: Array.from({ length: PLAYERS }, (_, i) => {
      const result = finishOf(i + 1);
      return { id: participant(i + 1), competition_id: TOURNAMENT, player_id: 60_000 + i + 1, ...(result === null ? {} : { result }) };
    }),
  };
}
