import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/process.js';

/**
 * The modules docs/development.md's layout names: the words after "public entry:" on the
 * `modules/<feature>/` line of its code block, and on the lines that continue it.
 */
function modulesListed(markdown: string): string[] {
  const lines = markdown.split('\n');
  const first = lines.findIndex((line) => /^\s+modules\/<feature>\//.test(line));
  if (first === -1) return [];
  const listing: string[] = [lines[first]?.split('public entry:')[1] ?? ''];
  // A continuation line is indented to the description column; the next entry starts at two spaces.
  for (const line of lines.slice(first + 1)) {
    if (!/^\s{6,}\S/.test(line)) break;
    listing.push(line);
  }
  return listing
    .join(' ')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
}

describe('docs/development.md', () => {
  it('names every module under src/modules, and no other', () => {
    const folders = readdirSync(join(ROOT, 'src/modules'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    const listed = modulesListed(readFileSync(join(ROOT, 'docs/development.md'), 'utf8'));
    expect([...listed].sort()).toEqual(folders);
    expect(folders.length).toBeGreaterThan(10);
  });

  it('the check reads the list as the layout writes it', () => {
    const layout = [
      '```',
      'src/',
      '  platform/             no feature',
      '  modules/<feature>/    routes and schemas; index.ts is the public entry: auth, tokens,',
      '                        oauth, account',
      '  cli/                  the operator CLI',
      '```',
    ].join('\n');
    expect(modulesListed(layout)).toEqual(['auth', 'tokens', 'oauth', 'account']);
    expect(modulesListed('no layout here')).toEqual([]);
  });
});
