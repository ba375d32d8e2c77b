import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * The content of `path`, created with `content()` (mode 0600) when absent. Several processes may
 * start at once on one data directory: the content is written in full to a private temporary
 * file and then hard-linked into place, which fails with EEXIST for every process but one. The
 * others read the winner's file back, which is complete by then (a plain `wx` write could be
 * read half-written).
 */
export function readOrCreateFile(path: string, content: () => string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if (!isCode(error, 'ENOENT')) throw error;
  }
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const text = content();
  writeFileSync(temporary, text, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(temporary, path);
    return text;
  } catch (error) {
    if (!isCode(error, 'EEXIST')) throw error;
    return readFileSync(path, 'utf8');
  } finally {
    rmSync(temporary, { force: true });
  }
}

function isCode(error: unknown, code: string): boolean {
  return error instanceof Error && 'code' in error && error.code === code;
}
