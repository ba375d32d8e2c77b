import type { EventStatus } from '../../../src/shared/event-status.js';
import type { EventResult, PeriodResult } from '../../../src/shared/settlement/grading.js';

/** A period's result written as plain objects: the score, event counts, and players' statistics by player id. */
export interface PeriodSketch {
  home: number;
  away: number;
  stats?: Record<string, number>;
  players?: Record<number, Record<string, number>>;
}

/** An event's result from plain objects, periods by key (the grader reads Maps). */
export function resultOf(periods: Record<string, PeriodSketch>, status: EventStatus = 'final'): EventResult {
  return { status, periods: new Map(Object.entries(periods).map(([key, sketch]) => [key, periodOf(sketch)])) };
}

function periodOf({ home, away, stats, players }: PeriodSketch): PeriodResult {
  return {
    home,
    away,
    ...(stats ? { stats: new Map(Object.entries(stats)) } : {}),
    ...(players ? { players: new Map(Object.entries(players).map(([id, s]) => [Number(id), new Map(Object.entries(s))])) } : {}),
  };
}
