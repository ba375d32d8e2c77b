import type { OperationSpec } from './endpoint.js';

/** Where an operation's parameters went: the path and query string, and the JSON body. */
export interface Placed {
  /** Path and query string, to append to the base URL. */
  target: string;
  body: string | undefined;
}

/**
 * Puts each parameter where the operation takes it: path parameters into the path, the rest
 * into the JSON body of a POST list or into the query string of a GET. Undefined values are left
 * out, as if not given.
 */
export function place(spec: OperationSpec, params: object | undefined): Placed {
  const rest = new Map(Object.entries(params ?? {}).filter(([, value]) => value !== undefined));
  const path = spec.path.replace(/\{([^}]+)\}/g, (_match, name: string) => {
    const value = rest.get(name);
    if (value === undefined || value === null || value === '') throw new TypeError(`${spec.method} ${spec.path}: the parameter ${name} is required`);
    rest.delete(name);
    return encodeURIComponent(String(value));
  });
  if (spec.arrayBody !== undefined) return { target: path, body: JSON.stringify(rest.get(spec.arrayBody) ?? []) };
  if (spec.body) return { target: path, body: JSON.stringify(Object.fromEntries(rest)) };
  const query = new URLSearchParams();
  for (const [name, value] of rest) {
    for (const one of Array.isArray(value) ? value : [value]) query.append(name, String(one));
  }
  const search = query.toString();
  return { target: search === '' ? path : `${path}?${search}`, body: undefined };
}
