import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/process.js';

/**
 * Every decision says where it stands, and the index says the same (decision 0190): a newcomer can
 * tell from either which decisions still hold, and which later one to read beside an amended one
 * or instead of a superseded one.
 */
const DECISIONS = join(ROOT, 'docs/decisions');

interface Decision {
  number: string;
  file: string;
  title: string;
  status: string;
}

/** The decisions a status names: `superseded by 0070`, `accepted, amended by 0050, 0090`. */
function namedBy(status: string): string[] {
  return [...status.matchAll(/\d{4}/g)].map((m) => m[0]);
}

/** What is wrong with a decision's first lines (status, blank, title), or undefined. */
function headProblem(file: string, text: string): string | undefined {
  const [status = '', blank, title = ''] = text.split('\n');
  const number = file.slice(0, 4);
  if (!/^Status: (?:accepted(?:, amended by \d{4}(?:, \d{4})*)?|superseded by \d{4})$/.test(status)) {
    return `its first line is not "Status: accepted", "Status: accepted, amended by NNNN" or "Status: superseded by NNNN"`;
  }
  if (blank !== '') return 'its second line is not blank';
  if (!new RegExp(`^# ${number} — \\S`).test(title)) return `its third line is not "# ${number} — <title>"`;
  return undefined;
}

function decisions(): Decision[] {
  return readdirSync(DECISIONS)
    .filter((file) => /^\d{4}-.+\.md$/.test(file))
    .sort()
    .map((file) => {
      const [status = '', , title = ''] = readFileSync(join(DECISIONS, file), 'utf8').split('\n');
      return { number: file.slice(0, 4), file, title: title.replace(/^# \d{4} — /, ''), status: status.replace(/^Status: /, '') };
    });
}

/** The index's entries: `- [NNNN — title](file) — status[: why]`, links in the status read as their numbers. */
function indexEntries(markdown: string): Array<{ number: string; title: string; file: string; status: string }> {
  return [...markdown.matchAll(/^- \[(\d{4}) — (.+?)\]\((\S+?)\) — (.+)$/gm)].map(([, number = '', title = '', file = '', rest = '']) => ({
    number,
    title,
    file,
    status: rest.replace(/\[(\d{4})\]\([^)]*\)/g, '$1').replace(/: .*$/, ''),
  }));
}

describe('decisions', () => {
  it('each starts with a status line, then its title', () => {
    const problems = readdirSync(DECISIONS)
      .filter((file) => /^\d{4}-.+\.md$/.test(file))
      .flatMap((file) => {
        const problem = headProblem(file, readFileSync(join(DECISIONS, file), 'utf8'));
        return problem ? [`${file}: ${problem}`] : [];
      });
    expect(problems).toEqual([]);
  });

  it('a status names decisions that exist, and a superseded one names one in force', () => {
    const all = decisions();
    const byNumber = new Map(all.map((d) => [d.number, d]));
    const problems = all.flatMap((d) =>
      namedBy(d.status).flatMap((other) => {
        const named = byNumber.get(other);
        if (named === undefined) return [`${d.file}: names ${other}, which does not exist`];
        if (other === d.number) return [`${d.file}: names itself`];
        if (d.status.startsWith('superseded') && named.status.startsWith('superseded')) return [`${d.file}: is superseded by ${other}, itself superseded`];
        return [];
      }),
    );
    expect(problems).toEqual([]);
    expect(all.length).toBeGreaterThan(90);
  });

  it('the index lists every decision once, under its title and with its status', () => {
    const entries = indexEntries(readFileSync(join(DECISIONS, 'README.md'), 'utf8'));
    const listed = entries.map((e) => e.number);
    expect(listed.filter((n, i) => listed.indexOf(n) !== i)).toEqual([]);
    expect(entries.map((e) => `${e.number} — ${e.title} (${e.file}) — ${e.status}`).sort()).toEqual(
      decisions().map((d) => `${d.number} — ${d.title} (${d.file}) — ${d.status}`),
    );
  });

  it('the checks find what they look for', () => {
    expect(headProblem('0001-x.md', 'Status: accepted\n\n# 0001 — A title\n\nText.')).toBeUndefined();
    expect(headProblem('0001-x.md', 'Status: accepted, amended by 0149, 0151\n\n# 0001 — A title\n')).toBeUndefined();
    expect(headProblem('0001-x.md', 'Status: superseded by 0070\n\n# 0001 — A title\n')).toBeUndefined();
    expect(headProblem('0001-x.md', '# 0001 — A title\n\nText without a status.')).toMatch(/first line/);
    expect(headProblem('0001-x.md', 'Status: superseded\n\n# 0001 — A title\n')).toMatch(/first line/);
    expect(headProblem('0001-x.md', 'Status: accepted\n\n# 0002 — Another number\n')).toMatch(/third line/);
    expect(namedBy('accepted, amended by 0050, 0090')).toEqual(['0050', '0090']);
    expect(indexEntries('- [0008 — One credential](0008-x.md) — superseded by [0070](0070-y.md): both are served\n')).toEqual([
      { number: '0008', title: 'One credential', file: '0008-x.md', status: 'superseded by 0070' },
    ]);
  });
});
