import { describe } from 'vitest';
import { crashThenRestart } from './end-to-end-crash.js';

// One dialect: the delivery held when the node died waits out its lease (about 30 s) before it is sent again.
describe('webhooks end to end: a node killed while a receiver holds its delivery, restarted (postgres)', () => {
  crashThenRestart('postgres', 'held');
});
