import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/process.js';
import { documents } from './markdown.js';

/** Each line of a document outside fenced code, with its line number. */
function proseLines(markdown: string): Array<{ line: string; number: number }> {
  let fenced = false;
  return markdown.split('\n').flatMap((line, i) => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      return [];
    }
    return fenced ? [] : [{ line, number: i + 1 }];
  });
}

/** Where a list item goes on, after a blank line, in the middle of a sentence: text left behind by a merge. */
function brokenContinuations(markdown: string): number[] {
  const lines = proseLines(markdown);
  return lines.filter(({ line }, i) => i > 0 && lines[i - 1]?.line.trim() === '' && /^ {2,}[a-z]/.test(line)).map(({ number }) => number);
}

/** Items of one list (up to the next heading) that begin alike: an item said twice, one of them stale. */
function repeatedItems(markdown: string): number[] {
  const seen = new Set<string>();
  const repeated: number[] = [];
  for (const { line, number } of proseLines(markdown)) {
    if (line.startsWith('#')) seen.clear();
    const start = /^- (.{30})/.exec(line)?.[1];
    if (start === undefined) continue;
    if (seen.has(start)) repeated.push(number);
    seen.add(start);
  }
  return repeated;
}

/**
 * docs/data.md once had a list garbled by a merge (an item said twice and half a sentence
 * left between them), which every link check passed. These find that shape in any document.
 */
describe('the Markdown of README.md and docs/', () => {
  it('no list item goes on after a blank line in the middle of a sentence', () => {
    for (const file of documents()) expect(brokenContinuations(readFileSync(file, 'utf8')), relative(ROOT, file)).toEqual([]);
  });

  it('no list repeats an item', () => {
    for (const file of documents()) expect(repeatedItems(readFileSync(file, 'utf8')), relative(ROOT, file)).toEqual([]);
  });

  it('the checks find what they look for', () => {
    const garbled = ['- `demo-data --scale N` multiplies teams, players and events.', '', '  to 4 legs per event.', '- `demo-data --scale N` multiplies teams, players and events (more).'].join('\n');
    expect(brokenContinuations(garbled)).toEqual([3]);
    expect(repeatedItems(garbled)).toEqual([4]);
    const fine = ['- `status` is one of:', '', '  | status |', '', '  The service keeps it.', '', '```sh', '  indented code', '```'].join('\n');
    expect(brokenContinuations(fine)).toEqual([]);
  });
});
