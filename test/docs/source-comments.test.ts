import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/process.js';

/**
 * Comments say why in their own words (decision 0190). A clone of the repository has neither the
 * issue tracker's texts nor the team's files beside it, so a comment that cites them gives its
 * reader nothing to follow. A speed in µs or ns holds for one compiler on one machine and goes
 * stale without anyone noticing: the decision keeps that figure, and docs/benchmarks.md keeps its
 * runs. Decisions may be cited by number: they are in the repository.
 */
const FORBIDDEN: ReadonlyArray<{ what: string; pattern: RegExp }> = [
  { what: 'cites an issue', pattern: /\bissues?\s+#?\d+/i },
  { what: 'cites an issue', pattern: /(?:^|[\s(,;])#\d+\b/ },
  { what: 'names a file outside the repository', pattern: /\b(?:SPEC|DESIGN|STYLE)\.md\b|\bSPEC\b|\bDESIGN\b|\/work\// },
  { what: 'holds a µs or ns figure', pattern: /\d(?:[\d.,]*\d)?\s*(?:µs|μs|ns|microseconds?|nanoseconds?)(?!\w)/ },
];

/** The folders whose source comments are checked, relative to the repository. */
const SOURCE_FOLDERS = ['src', 'packages/client/src', 'packages/client/scripts', 'packages/client/test', 'test', 'bench', 'scripts', 'examples'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return /\.(?:ts|mts|mjs|js)$/.test(entry.name) ? [path] : [];
  });
}

/**
 * The comments of a source text, with the line each starts on. TypeScript's scanner returns
 * comments as tokens; the parsed file tells it where a `/` starts a regular expression and where
 * a `}` continues a template, so that their text is never mistaken for a comment.
 */
function commentsOf(fileName: string, text: string): Array<{ line: number; text: string }> {
  const kind = /\.m?js$/.test(fileName) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind);
  const regexes = new Set<number>();
  const templateParts = new Set<number>();
  const visit = (node: ts.Node): void => {
    if (ts.isRegularExpressionLiteral(node)) regexes.add(node.getStart(file));
    if (ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) templateParts.add(node.getStart(file));
    ts.forEachChild(node, visit);
  };
  visit(file);
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, text);
  const found: Array<{ line: number; text: string }> = [];
  for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) {
    const start = scanner.getTokenStart();
    if ((token === ts.SyntaxKind.SlashToken || token === ts.SyntaxKind.SlashEqualsToken) && regexes.has(start)) scanner.reScanSlashToken();
    else if (token === ts.SyntaxKind.CloseBraceToken && templateParts.has(start)) scanner.reScanTemplateToken(false);
    else if (token === ts.SyntaxKind.SingleLineCommentTrivia || token === ts.SyntaxKind.MultiLineCommentTrivia) {
      found.push({ line: file.getLineAndCharacterOfPosition(start).line + 1, text: scanner.getTokenText() });
    }
  }
  return found;
}

/** Each forbidden citation or figure in the comments of a source text, as `line: what: "match"`. */
function problemsIn(fileName: string, text: string): string[] {
  return commentsOf(fileName, text).flatMap(({ line, text: comment }) =>
    FORBIDDEN.flatMap(({ what, pattern }) => {
      const match = pattern.exec(comment);
      return match ? [`${line}: ${what}: "${match[0].trim()}"`] : [];
    }),
  );
}

describe('source comments', () => {
  it('cite no issue, no file outside the repository and no µs or ns figure', () => {
    const problems: string[] = [];
    let comments = 0;
    for (const folder of SOURCE_FOLDERS) {
      for (const file of sourceFiles(join(ROOT, folder))) {
        const text = readFileSync(file, 'utf8');
        comments += commentsOf(file, text).length;
        for (const problem of problemsIn(file, text)) problems.push(`${relative(ROOT, file)}:${problem}`);
      }
    }
    expect(problems).toEqual([]);
    // The tree is commented throughout: a scan that found few comments would prove nothing.
    expect(comments).toBeGreaterThan(1000);
  }, 120_000); // Parsing some 450 files takes a second or two, and far longer on a busy machine.

  it('the scan finds what it looks for, in comments only', () => {
    const source = [
      '/** Why: see issue 12. */',
      'const a = 1; // as SPEC.md says',
      "const b = 'issue 12 in a string is text, not a comment';",
      'const c = /#12 \\/\\/ issue 3/; /* a lookup: 0.4 µs */',
      '// a page of 1,089 ns',
      'function f() {',
      '  // the last line of a block, #7',
      '}',
      '/* DESIGN §3 */ export const d = `issue 4 ${a} // not a comment`;',
      '// RFC 9110 §8.8.3, decision 0149, 2^53−1, 5 s, 30 ms: all allowed',
    ].join('\n');
    expect(problemsIn('example.ts', source)).toEqual([
      '1: cites an issue: "issue 12"',
      '2: names a file outside the repository: "SPEC.md"',
      '4: holds a µs or ns figure: "0.4 µs"',
      '5: holds a µs or ns figure: "1,089 ns"',
      '7: cites an issue: "#7"',
      '9: names a file outside the repository: "DESIGN"',
    ]);
  });
});
