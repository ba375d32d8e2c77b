import { hash } from 'node:crypto';

/** Conditional GETs (RFC 9110 §13.1.2): shared by the cached pages and the streamed files. */

/** A strong entity tag: a digest of the bytes (or the text) it stands for, so equal content keeps its tag. */
export function strongTag(content: Buffer | string): string {
  return `"${hash('sha256', content, 'base64url').slice(0, 27)}"`;
}

/** The answer to a GET whose If-None-Match names the current representation: no body (RFC 9110 §15.4.5). */
export const NOT_MODIFIED = { description: 'Not Modified: the client has the current copy (its ETag matches If-None-Match).', type: 'null' } as const;

/** If-None-Match: `*`, or a list of tags compared weakly (a W/ prefix is ignored). */
export function ifNoneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === bare);
}
