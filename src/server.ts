import { serve } from './cluster.js';
import { loadConfig } from './config.js';
import { cannotStart } from './serve.js';

/** Process entry of `npm start`; the work is in serve.ts and cluster.ts, shared with `sportsdata serve`. */
try {
  await serve(loadConfig());
} catch (error) {
  cannotStart(error);
}
