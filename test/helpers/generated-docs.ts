import { readFileSync, writeFileSync } from 'node:fs';
import { expect } from 'vitest';

/**
 * A part of a doc generated from the code, between `<!-- generated: NAME … -->` and
 * `<!-- end: NAME -->`: the test fails while the doc says something else, and shows what it should
 * say. With UPDATE_DOCS=1 it writes the part instead (then review the diff).
 */
export function expectGeneratedSection(file: URL, name: string, lines: readonly string[]): void {
  const text = readFileSync(file, 'utf8');
  const start = new RegExp(`<!-- generated: ${name}\\b[^\\n]*-->\\n`).exec(text);
  const end = text.indexOf(`<!-- end: ${name} -->`);
  expect(start, `${file.pathname} has no "<!-- generated: ${name} … -->" marker`).not.toBeNull();
  expect(end, `${file.pathname} has no "<!-- end: ${name} -->" marker`).toBeGreaterThan(0);
  if (start === null) return;
  const from = start.index + start[0].length;
  // Blank lines around the part: a table must not run into a marker.
  const wanted = `\n${lines.join('\n')}\n\n`;
  if (process.env.UPDATE_DOCS === '1') {
    writeFileSync(file, text.slice(0, from) + wanted + text.slice(end));
    return;
  }
  expect(text.slice(from, end), `${file.pathname}, part "${name}" (UPDATE_DOCS=1 rewrites it)`).toBe(wanted);
}
