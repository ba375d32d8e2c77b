import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { type Answer, recordAnswers } from './answers/record.js';
import { REQUESTS } from './answers/requests.js';

/**
 * What the API answers, recorded and compared across builds (bench/answers/requests.ts lists the
 * requests): for a change that must not alter any answer, such as moving code around.
 *
 *   npx tsx bench/answers.ts record FILE [--dir CHECKOUT]   records the answers of CHECKOUT's src/ (default: this one)
 *   npx tsx bench/answers.ts compare FILE [--dir CHECKOUT]  records again and lists every answer that differs
 *
 * Headers are compared whatever their order; request ids, the Date header, random credentials and
 * client ids are masked. `compare` exits with 1 when an answer differs.
 */
const [command, file, ...rest] = process.argv.slice(2);
const dirFlag = rest.indexOf('--dir');
const dir = resolve(dirFlag >= 0 ? (rest[dirFlag + 1] ?? '.') : '.');
if ((command !== 'record' && command !== 'compare') || file === undefined) {
  process.stderr.write('usage: npx tsx bench/answers.ts record|compare FILE [--dir CHECKOUT]\n');
  process.exit(2);
}

const answers = await recordAnswers(dir, REQUESTS);
if (command === 'record') {
  mkdirSync(dirname(resolve(file)), { recursive: true });
  writeFileSync(file, `${JSON.stringify(answers, null, 1)}\n`);
  process.stdout.write(`${answers.length} answers of ${dir} recorded in ${file}\n`);
} else {
  const before = JSON.parse(readFileSync(file, 'utf8')) as Answer[];
  const differences = compare(before, answers);
  for (const line of differences) process.stdout.write(`${line}\n`);
  process.stdout.write(`${answers.length} answers of ${dir} compared with ${file}: ${differences.length === 0 ? 'all the same' : `${differences.length} differences`}\n`);
  process.exitCode = differences.length === 0 ? 0 : 1;
}

/** One line per difference: a missing or extra answer, a status, a header, a body (the path in it). */
function compare(before: readonly Answer[], after: readonly Answer[]): string[] {
  const lines: string[] = [];
  const afterByLabel = new Map(after.map((answer) => [answer.label, answer]));
  for (const old of before) {
    const now = afterByLabel.get(old.label);
    if (now === undefined) {
      lines.push(`${old.label}: not recorded any more`);
      continue;
    }
    afterByLabel.delete(old.label);
    if (old.status !== now.status) lines.push(`${old.label}: status ${old.status} → ${now.status}`);
    for (const name of new Set([...Object.keys(old.headers), ...Object.keys(now.headers)])) {
      if (old.headers[name] !== now.headers[name]) lines.push(`${old.label}: header ${name}: ${show(old.headers[name])} → ${show(now.headers[name])}`);
    }
    for (const path of differingPaths(old.body, now.body, '')) lines.push(`${old.label}: body${path}`);
  }
  for (const label of afterByLabel.keys()) lines.push(`${label}: new answer`);
  return lines;
}

/** Where two bodies differ: each path with both values (shortened). */
function differingPaths(a: unknown, b: unknown, path: string): string[] {
  if (isDeepStrictEqual(a, b)) return [];
  if (isObject(a) && isObject(b)) {
    return [...new Set([...Object.keys(a), ...Object.keys(b)])].flatMap((key) => differingPaths(a[key], b[key], `${path}.${key}`));
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) return a.flatMap((item, i) => differingPaths(item, b[i], `${path}[${i}]`));
  return [`${path}: ${show(a)} → ${show(b)}`];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function show(value: unknown): string {
  if (value === undefined) return '(absent)';
  const text = JSON.stringify(value);
  return text.length > 160 ? `${text.slice(0, 157)}…` : text;
}
