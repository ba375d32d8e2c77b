/**
 * The operations of an OpenAPI 3.1 document, in the form the request generators need: where
 * each parameter goes, the JSON Schema of each input, and which credentials it takes. `$ref`s
 * into the document are resolved here, so the generators see plain schemas.
 */

export type Json = Record<string, unknown>;

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Json;
}

export interface Operation {
  /** `GET /v1/references/leagues`: how failures and statistics name it. */
  id: string;
  method: HttpMethod;
  /** The path template, e.g. `/admin/v1/clients/{client_id}`. */
  path: string;
  parameters: Parameter[];
  /** The JSON body's schema; undefined when the operation documents no body. */
  body: { required: boolean; schema: Json } | undefined;
  /** The credential that reaches the handler. */
  security: 'client' | 'admin' | 'api-key-only' | 'none';
  /** The operation answers a Server-Sent Events stream (text/event-stream), which never ends by itself. */
  eventStream: boolean;
  /**
   * Error statuses the document gives a body other than the Error schema: the standard OAuth
   * endpoints answer in RFC 6749's format (decision 0072). The document still checks those bodies.
   */
  ownErrorFormats: number[];
}

const METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

export function operationsOf(document: Json): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(record(document.paths))) {
    for (const method of METHODS) {
      const operation = record(item)[method.toLowerCase()];
      if (!isRecord(operation)) continue;
      operations.push({
        id: `${method} ${path}`,
        method,
        path,
        parameters: parametersOf(document, operation),
        body: bodyOf(document, operation),
        security: securityOf(operation),
        ownErrorFormats: ownErrorFormatsOf(document, operation),
        eventStream: 'text/event-stream' in record(record(resolve(document, record(operation.responses)['200'])).content),
      });
    }
  }
  return operations;
}

function parametersOf(document: Json, operation: Json): Parameter[] {
  const parameters = Array.isArray(operation.parameters) ? operation.parameters : [];
  return parameters.map((p) => resolve(document, p)).flatMap((p): Parameter[] => {
    const where = p.in;
    if (where !== 'path' && where !== 'query' && where !== 'header') return [];
    return [{ name: String(p.name), in: where, required: p.required === true || where === 'path', schema: resolveSchema(document, p.schema) }];
  });
}

function bodyOf(document: Json, operation: Json): Operation['body'] {
  if (!isRecord(operation.requestBody)) return undefined;
  const body = resolve(document, operation.requestBody);
  const media = record(record(body.content)['application/json']);
  return { required: body.required === true, schema: resolveSchema(document, media.schema) };
}

function securityOf(operation: Json): Operation['security'] {
  const schemes = (Array.isArray(operation.security) ? operation.security : []).flatMap((s) => Object.keys(record(s)));
  if (schemes.includes('AdminToken')) return 'admin';
  if (schemes.includes('BearerAuth')) return 'client';
  if (schemes.includes('ApiKeyAuth')) return 'api-key-only';
  return 'none';
}

function ownErrorFormatsOf(document: Json, operation: Json): number[] {
  return Object.entries(record(operation.responses)).flatMap(([status, response]) => {
    const schema = record(record(record(resolve(document, response).content)['application/json']).schema);
    const usesError = JSON.stringify(schema).includes('#/components/schemas/Error');
    return Number(status) >= 400 && Object.keys(schema).length > 0 && !usesError ? [Number(status)] : [];
  });
}

/** Follows a `$ref` (`#/components/…`) to what it names. */
function resolve(document: Json, value: unknown): Json {
  let current = record(value);
  for (let hops = 0; typeof current.$ref === 'string' && hops < 10; hops += 1) {
    let target: unknown = document;
    for (const segment of current.$ref.replace(/^#\//, '').split('/')) target = record(target)[segment];
    current = record(target);
  }
  return current;
}

/** A schema with every `$ref` inside it replaced by its target (the documents have no cycles). */
export function resolveSchema(document: Json, schema: unknown, depth = 0): Json {
  if (depth > 20) return {};
  const resolved = resolve(document, schema);
  const out: Json = {};
  for (const [key, value] of Object.entries(resolved)) {
    if (key === 'properties' && isRecord(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, s]) => [name, resolveSchema(document, s, depth + 1)]));
    } else if ((key === 'items' || key === 'additionalProperties') && isRecord(value)) {
      out[key] = resolveSchema(document, value, depth + 1);
    } else if ((key === 'anyOf' || key === 'oneOf' || key === 'allOf') && Array.isArray(value)) {
      out[key] = value.map((s) => resolveSchema(document, s, depth + 1));
    } else {
      out[key] = value;
    }
  }
  return out;
}

export function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function record(value: unknown): Json {
  return isRecord(value) ? value : {};
}
