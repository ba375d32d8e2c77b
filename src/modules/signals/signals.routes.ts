import type { ModuleRoutes } from '../../platform/http/types.js';
import { PerformanceAnswer, PerformanceBody, SignalsBody, SignalsPage } from './signals.schemas.js';
import type { SignalsService } from './signals.service.js';

// Counted in the results group: a signal's record is its grades (decision 0321).
const POLICY = { auth: 'client', tier: 'signals', limit: 'data', usage: 'results', cache: 'data', errors: ['NOT_FOUND', 'AMBIGUOUS_LOOKUP'] } as const;

export const signalsRoutes: ModuleRoutes<{ signals: SignalsService }> = async (app, { signals }) => {
  app.post(
    '/v1/signals',
    {
      config: { policy: POLICY },
      schema: {
        tags: ['signals'],
        summary: 'The signals the detector recorded, with their outcome and CLV',
        description:
          'Every value bet, arbitrage, middle, steam move and drop the server\'s detector recorded, once per appearance (docs/data.md#signals), ' +
          'newest first: its price, fair probability or move, when it appeared and ended, its outcome once its selections are graded, and its CLV. ' +
          'Filter by type, sport, league (ids win over keys), betting markets, books, days of detection (default the last 30) and outcome; ' +
          'the signals of competitions only when `event_kinds` includes `competition` (default matchups only).',
        body: SignalsBody,
        response: { 200: SignalsPage },
      },
    },
    async (request) => signals.list(request.body),
  );

  app.post(
    '/v1/signals/performance',
    {
      config: { policy: POLICY },
      schema: {
        tags: ['signals'],
        summary: 'The signals\' track record, summed up',
        description:
          'The signals of the same filters, summed overall and by type, sport, league, market, book and edge bucket: counts by outcome, ' +
          'hit rate with its 95% Wilson interval (pushes and voids left out), ROI at flat stakes with its 95% normal-approximation interval, and mean CLV (docs/data.md#signals); ' +
          'competitions\' signals only when `event_kinds` includes `competition`.',
        body: PerformanceBody,
        response: { 200: PerformanceAnswer },
      },
    },
    async (request) => signals.performance(request.body),
  );
};
