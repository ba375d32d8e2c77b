import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/process.js';
import { documents, prose } from './markdown.js';


/** Inline links and images `[text](target "title")`, and reference definitions `[name]: target`. */
function linksIn(markdown: string): string[] {
  const text = prose(markdown);
  const inline = [...text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1] ?? '');
  const references = [...text.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)].map((m) => m[1] ?? '');
  return [...inline, ...references];
}

/** GitHub's anchors of a document's headings: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const withoutCode = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  for (const [, heading] of withoutCode.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = (heading ?? '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .trim()
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Why a relative link does not resolve inside the repository, or undefined when it does. */
function problemOf(from: string, link: string): string | undefined {
  const [rawPath = '', anchor] = link.split('#', 2);
  const path = decodeURIComponent(rawPath);
  const target = path === '' ? from : resolve(dirname(from), path);
  const inside = relative(ROOT, target);
  if (inside.startsWith(`..${sep}`) || inside === '..') return 'leads outside the repository';
  if (!existsSync(target)) return 'names no file or folder';
  if (anchor === undefined || anchor === '') return undefined;
  if (statSync(target).isDirectory() || !target.endsWith('.md')) return 'has an anchor on something that is not a Markdown file';
  return anchorsOf(readFileSync(target, 'utf8')).has(anchor) ? undefined : `names no heading of ${relative(ROOT, target)}`;
}

const isExternal = (link: string) => /^[a-z][a-z0-9+.-]*:/i.test(link);

/**
 * The README and docs/ link only what a clone of the repository has. Every relative link
 * names a file or folder inside it, and every #anchor a heading of the file it points at.
 */
describe('links in README.md and docs/', () => {
  it('every relative link resolves inside the repository, anchors included', () => {
    const broken: string[] = [];
    let checked = 0;
    for (const file of documents()) {
      for (const link of linksIn(readFileSync(file, 'utf8'))) {
        if (isExternal(link)) continue;
        checked += 1;
        const problem = problemOf(file, link);
        if (problem) broken.push(`${relative(ROOT, file)}: (${link}) ${problem}`);
      }
    }
    expect(broken).toEqual([]);
    // The documents link each other: a check that found no link would prove nothing.
    expect(checked).toBeGreaterThan(50);
  });

  it('no document names the team-internal files a clone does not have, or cites an issue (decision 0190)', () => {
    for (const file of documents()) {
      const text = readFileSync(file, 'utf8');
      expect(text, relative(ROOT, file)).not.toMatch(/\.\.\/shared|SPEC\.md|DESIGN\.md|\bSPEC\b|\bDESIGN\b/);
      expect(text, relative(ROOT, file)).not.toMatch(/\bissues?\s+#?\d+|(?:^|[\s(,;])#\d+\b/i);
    }
  });

  it('the check finds what it looks for: a link to a missing file, outside the repository or to a missing heading', () => {
    const readme = join(ROOT, 'README.md');
    expect(linksIn('See [a](docs/api.md#errors), `[not](a-link.md)`, ![img](x.png "t") and\n\n[ref]: docs/data.md\n')).toEqual([
      'docs/api.md#errors',
      'x.png',
      'docs/data.md',
    ]);
    expect(problemOf(readme, 'docs/api.md#errors')).toBeUndefined();
    expect(problemOf(readme, 'docs/decisions/')).toBeUndefined();
    expect(problemOf(readme, 'docs/nope.md')).toBe('names no file or folder');
    expect(problemOf(readme, '../shared/SPEC.md')).toBe('leads outside the repository');
    expect(problemOf(readme, 'docs/api.md#no-such-heading')).toBe('names no heading of docs/api.md');
    expect([...anchorsOf('# A `code` Title: (x)\n## Same\n## Same\n')]).toEqual(['a-code-title-x', 'same', 'same-1']);
  });
});
