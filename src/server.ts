import { serve } from './cluster.js';
import { configOrExit } from './serve.js';

/** Process entry of `npm start`; the work is in serve.ts and cluster.ts, shared with `sportsdata serve`. */
await serve(configOrExit());
