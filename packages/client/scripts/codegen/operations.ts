import { docComment, json, type Json, propertyDoc, propertyKey, type SchemaTypes } from './schema-types.js';

/** One method of the SDK, as the table names it and the document describes it. */
export interface Endpoint {
  /** Dotted name in the table: `references.teams`. */
  name: string;
  /** `GET /v1/references/teams`. */
  key: string;
  method: string;
  path: string;
  summary: string | undefined;
  description: string | undefined;
  /** Name of the parameters' type, or undefined for an operation that takes none. */
  params: string | undefined;
  /** Some parameter must be given. */
  paramsRequired: boolean;
  /** Name of the success answer's type, or `void` for one without a body. */
  response: string;
  /** The answer is a page of the contract's list shape. */
  paged: boolean;
  /** The answer is a keyset page (`results` and `next_after`), the change cursor's. */
  cursor: boolean;
  /** The parameters (other than path ones) go in a JSON body rather than the query string. */
  body: boolean;
  /** The parameter whose value is the whole body, for an operation whose body is an array. */
  arrayBody?: string;
  /** Safe to send again: every GET, and every list (the POST lists are reads). */
  idempotent: boolean;
}

/** The parameter that carries an array body. */
const ARRAY_BODY_PARAM = 'items';

const PAGE_FIELDS = ['results', 'total_count', 'page', 'page_size', 'total_pages'];
const CURSOR_FIELDS = ['results', 'next_after'];

export const pascal = (dotted: string): string =>
  dotted
    .split(/[.\-_/]/)
    .filter(Boolean)
    .map((part) => part[0]?.toUpperCase() + part.slice(1))
    .join('');

/** The operation object of `METHOD /path` in the document. */
export function operationOf(document: Json, key: string): Json {
  const [method = '', path = ''] = key.split(' ');
  const operation = json(json(json(document.paths)[path])[method.toLowerCase()]);
  if (Object.keys(operation).length === 0) throw new Error(`the OpenAPI document has no operation ${key}`);
  return operation;
}

/** Every operation of the document under /v1, as `METHOD /path`. */
export function v1Operations(document: Json): string[] {
  return Object.entries(json(document.paths)).flatMap(([path, item]) =>
    path.startsWith('/v1/') ? Object.keys(json(item)).filter((m) => m !== 'parameters').map((m) => `${m.toUpperCase()} ${path}`) : [],
  );
}

function followRef(document: Json, schema: Json): Json {
  if (typeof schema.$ref !== 'string') return schema;
  const name = schema.$ref.replace('#/components/schemas/', '');
  return json(json(json(document.components).schemas)[name]);
}

/** The JSON schema of the first success answer, or undefined when it has no body. */
export function successSchema(operation: Json): Json | undefined {
  const responses = json(operation.responses);
  const status = Object.keys(responses).find((s) => /^2\d\d$/.test(s));
  if (status === undefined) throw new Error(`an operation has no success answer`);
  const content = json(json(responses[status]).content);
  const schema = json(content['application/json']).schema;
  return schema === undefined ? undefined : json(schema);
}

/** Reads an endpoint of the table from the document, declaring its types in `types`. */
export function readEndpoint(document: Json, types: SchemaTypes, name: string, key: string): { endpoint: Endpoint; paramsDeclaration?: string } {
  const operation = operationOf(document, key);
  const [method = '', path = ''] = key.split(' ');
  const parameters = (Array.isArray(operation.parameters) ? operation.parameters : []).map(json).filter((p) => p.in === 'path' || p.in === 'query');
  const bodySchema = followRef(document, json(json(json(json(operation.requestBody).content)['application/json']).schema));
  const body = Object.keys(bodySchema).length > 0;
  // An array body (the one is Odditt's quote batch) is given as one parameter, `items`, sent as the body itself.
  const arrayBody = body && bodySchema.type === 'array' ? ARRAY_BODY_PARAM : undefined;
  if (body && arrayBody === undefined && bodySchema.type !== 'object') throw new Error(`${key}: a JSON body that is neither an object nor an array is not supported`);

  // Path and query parameters, then the body's fields: one object, as a caller writes it.
  const members: string[] = [];
  const seen = new Set<string>();
  let paramsRequired = false;
  const add = (field: string, schema: Json, required: boolean, description: unknown) => {
    if (seen.has(field)) throw new Error(`${key}: the parameter ${field} is both in the path or query and in the body`);
    seen.add(field);
    paramsRequired ||= required;
    members.push(`${propertyDoc(schema, '  ', description)}  ${propertyKey(field)}${required ? '' : '?'}: ${types.type(schema, '  ')};\n`);
  };
  for (const p of parameters) add(String(p.name), json(p.schema), p.required === true, p.description);
  if (arrayBody !== undefined) add(arrayBody, bodySchema, true, bodySchema.description);
  const requiredFields = new Set(Array.isArray(bodySchema.required) ? bodySchema.required : []);
  for (const [field, schema] of Object.entries(json(bodySchema.properties))) add(field, json(schema), requiredFields.has(field), json(schema).description);

  const paramsName = members.length > 0 ? `${pascal(name)}Params` : undefined;
  const paramsDeclaration =
    paramsName === undefined ? undefined : `${docComment([`Parameters of \`${key}\`.`], '')}export interface ${paramsName} {\n${members.join('')}}\n`;

  const success = successSchema(operation);
  const resolved = success === undefined ? {} : followRef(document, success);
  const paged = PAGE_FIELDS.every((field) => field in json(resolved.properties));
  const cursor = CURSOR_FIELDS.every((field) => field in json(resolved.properties));
  const response =
    success === undefined
      ? 'void'
      : typeof success.title === 'string' || typeof success.$ref === 'string'
        ? types.type(success, '', { answerOf: key })
        : types.named(`${pascal(name)}Response`, success, { answerOf: key });

  const endpoint: Endpoint = {
    name,
    key,
    method,
    path,
    summary: typeof operation.summary === 'string' ? operation.summary : undefined,
    description: typeof operation.description === 'string' ? operation.description : undefined,
    params: paramsName,
    paramsRequired,
    response,
    paged,
    cursor,
    body,
    ...(arrayBody === undefined ? {} : { arrayBody }),
    idempotent: method === 'GET' || paged,
  };
  return paramsDeclaration === undefined ? { endpoint } : { endpoint, paramsDeclaration };
}
