/** Signals: the server's detector's record of value bets, arbitrages, middles, steam moves and drops, graded with their selections and set against the close; listed and summed up. */
export { createSignals, type Signals } from './signals.js';
export { createSignalsService, type SignalsService } from './signals.service.js';
export { signalsRoutes } from './signals.routes.js';
export { type Candidate, type MiddlesOf } from './signals.candidates.js';
export { MOVES_SOURCE, moveSignalsWork, SIGNALS_MOVES_CURSOR } from './signals.moves.js';
