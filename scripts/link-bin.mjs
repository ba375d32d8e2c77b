// Makes `npx sportsdata` run this checkout's CLI. npx looks in node_modules/.bin; package.json
// deliberately has no "bin" entry, because npm 11 runs a project's *own* bin by installing a copy
// of the project into its cache (a full build, and a stale copy after every later change).
// Run by `prepare`, i.e. after every `npm ci` / `npm install`.
import { existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';

if (existsSync('node_modules')) {
  mkdirSync('node_modules/.bin', { recursive: true });
  rmSync('node_modules/.bin/sportsdata', { force: true });
  symlinkSync('../../bin/sportsdata.js', 'node_modules/.bin/sportsdata');
}
