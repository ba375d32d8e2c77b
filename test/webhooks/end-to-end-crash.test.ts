import { describe } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { crashThenRestart } from './end-to-end-crash.js';

describe.each(DIALECTS)('webhooks end to end: a node killed before it could deliver an import, restarted (%s)', (dialect) => {
  crashThenRestart(dialect, 'refused');
});
