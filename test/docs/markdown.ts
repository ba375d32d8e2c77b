import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/process.js';

/** README.md and every Markdown file under docs/: what a reader of the repository follows. */
export function documents(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? walk(join(dir, entry.name)) : entry.name.endsWith('.md') ? [join(dir, entry.name)] : [],
    );
  return [join(ROOT, 'README.md'), ...walk(join(ROOT, 'docs'))];
}

/** A Markdown file of the repository, by its path from the root (`docs/api.md`). */
export const readDoc = (path: string): string => readFileSync(join(ROOT, path), 'utf8');

/** Markdown without code: a link shown in a code block or span is text, not a link. */
export function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** The text under a heading, up to the next heading of the same or a higher level. */
export function section(markdown: string, heading: string): string {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => /^#+ /.test(line) && line.replace(/^#+ /, '') === heading);
  if (start < 0) throw new Error(`no heading "${heading}"`);
  const level = /^#+/.exec(lines[start] ?? '')?.[0].length ?? 1;
  const rest = lines.slice(start + 1);
  const end = rest.findIndex((line) => new RegExp(`^#{1,${level}} `).test(line));
  return rest.slice(0, end < 0 ? undefined : end).join('\n');
}

/** The cells of each body row of the first table in `text` (header and separator left out; `\|` is a pipe inside a cell). */
export function tableRows(text: string): string[][] {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.startsWith('|'));
  const end = lines.findIndex((line, i) => i > start && !line.startsWith('|'));
  return lines.slice(start + 2, end < 0 ? undefined : end).map(cellsOf);
}

/** The cells of one table row. */
export function cellsOf(line: string): string[] {
  return line
    .slice(1, line.endsWith('|') ? -1 : undefined)
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim().replaceAll('\\|', '|'));
}

/** The contents of the fenced code blocks in `text` of a language (`sh`), or of every block with `''`. */
export function codeBlocks(text: string, language: string): string[] {
  return [...text.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].filter((m) => language === '' || m[1] === language).map((m) => m[2] ?? '');
}

/** The values in backticks, in order of appearance. */
export const backticked = (text: string): string[] => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? '');
