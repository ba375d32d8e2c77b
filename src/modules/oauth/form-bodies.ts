import type { FastifyInstance } from 'fastify';

/** A form body as the standard endpoints see it: a repeated parameter keeps all its values. */
export type FormBody = Record<string, string | string[]>;

/**
 * `application/x-www-form-urlencoded` bodies, and no other media type (RFC 6749 Appendix B: UTF-8, `+` for a space), for the
 * scope it is registered in only: every other endpoint keeps refusing anything but JSON. A
 * parameter sent without a value is treated as omitted (RFC 6749 §3.2); a repeated one keeps its
 * values, for the schema to refuse (it "MUST NOT be included more than once").
 */
export function registerFormBodies(app: FastifyInstance): void {
  // The app's JSON parser stays outside: RFC 6749 §3.2 and RFC 7009 §2.1 take forms only.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, parseForm(typeof body === 'string' ? body : body.toString('utf8')));
  });
}

export function parseForm(text: string): FormBody {
  const values = new Map<string, string[]>();
  for (const [name, value] of new URLSearchParams(text)) {
    if (value === '') continue;
    const seen = values.get(name);
    if (seen === undefined) values.set(name, [value]);
    else seen.push(value);
  }
  // fromEntries defines own properties: a parameter named __proto__ stays a parameter.
  return Object.fromEntries([...values].map(([name, all]) => [name, all.length === 1 ? (all[0] ?? '') : all]));
}
