import { serveProcess } from './serve.js';

/** Process entry of `npm start`; the work is in serve.ts, shared with `sportsdata serve`. */
await serveProcess();
