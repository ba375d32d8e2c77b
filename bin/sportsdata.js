#!/usr/bin/env node
// The `sportsdata` operator CLI. dist/ is built by `npm run build` (run by `prepare` on npm ci).
import { runCli } from '../dist/cli/main.js';

process.exitCode = await runCli(process.argv.slice(2));
