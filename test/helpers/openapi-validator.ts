import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { InjectOptions, LightMyRequestCallback, LightMyRequestChain, LightMyRequestResponse } from 'fastify';
import type { App } from '../../src/platform/http/types.js';
import { textOf } from './bodies.js';

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** Responses that are not JSON operations of the document: the docs page, its assets, metrics, the portal and the console (pages and their own calls). */
const UNDOCUMENTED = /^\/(docs(\/.*)?|openapi\.json|metrics|(portal|console)(\/.*)?)$/;

const DOCUMENT_ID = 'urn:sportsdata:openapi';
const STATUS_RESPONSES: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  408: 'RequestTimeout',
  409: 'AmbiguousLookup',
  413: 'PayloadTooLarge',
  414: 'UriTooLong',
  422: 'ValidationError',
  429: 'RateLimitExceeded',
  431: 'HeadersTooLarge',
  500: 'InternalError',
  503: 'ServiceUnavailable',
};

type Json = Record<string, unknown>;

interface PathTemplate {
  template: string;
  pattern: RegExp;
  item: Json;
}

/**
 * Checks a response against the OpenAPI document the app serves: the status is documented for
 * the operation, and the body matches the schema documented for that status (error bodies the
 * error schema with the code of that status). Validators are compiled once per schema.
 */
export class ResponseValidator {
  private readonly ajv = addFormats(new Ajv2020({ strict: false, allErrors: true, coerceTypes: false, useDefaults: false }));
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly templates: PathTemplate[];

  constructor(private readonly document: Json) {
    // The whole document is one schema resource, so `#/components/...` inside any schema resolves.
    this.ajv.addSchema(document, DOCUMENT_ID);
    this.templates = Object.entries(record(document.paths))
      .map(([template, item]) => ({ template, pattern: templatePattern(template), item: record(item) }))
      // A literal segment wins over a parameter, as in Fastify's router.
      .sort((a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0));
  }

  /** A description of what is wrong, or undefined when the response is as documented. */
  problemOf(response: LightMyRequestResponse): string | undefined {
    const method = (response.raw.req.method ?? 'GET').toLowerCase();
    const path = (response.raw.req.url ?? '/').split('?')[0]?.replace(/(.)\/+$/, '$1') ?? '/';
    if (method === 'head' || UNDOCUMENTED.test(path)) return undefined;
    const where = `${method.toUpperCase()} ${path} → ${response.statusCode}`;

    const candidates = this.templates.filter((t) => t.pattern.test(path));
    const match = candidates.find((t) => isRecord(t.item[method])) ?? candidates[0];
    const operation = match ? match.item[method] : undefined;
    let pointer: string[];
    let documented: Json;
    if (match && isRecord(operation)) {
      const responses = record(operation.responses);
      const status = [String(response.statusCode), `${String(response.statusCode)[0]}XX`, 'default'].find((s) => s in responses);
      if (status === undefined) {
        return `${where}: status ${response.statusCode} is not documented for ${method.toUpperCase()} ${match.template} (documented: ${Object.keys(responses).join(', ')})`;
      }
      [pointer, documented] = this.resolve(['paths', match.template, method, 'responses', status], record(responses[status]));
    } else {
      // No such operation (an unknown route or method): only an error in the error shape is right.
      const name = STATUS_RESPONSES[response.statusCode];
      if (response.statusCode < 400 || name === undefined) return `${where}: no documented operation answers ${method.toUpperCase()} ${path}`;
      pointer = ['components', 'responses', name];
      documented = record(record(record(this.document.components).responses)[name]);
    }
    return this.bodyProblem(where, response, pointer, documented);
  }

  private bodyProblem(where: string, response: LightMyRequestResponse, pointer: string[], documented: Json): string | undefined {
    const content = record(documented.content);
    const mediaType = Object.keys(content).find((type) => type.includes('json'));
    if (mediaType === undefined) {
      if (Object.keys(content).length === 0) return response.body.length > 0 ? `${where}: a body was sent but none is documented` : undefined;
      // Text media (CSV, an event stream): the type must be one documented.
      const sent = String(response.headers['content-type'] ?? '');
      return Object.keys(content).some((type) => sent.startsWith(type)) ? undefined : `${where}: documented as ${Object.keys(content).join(' or ')}, sent as "${sent}"`;
    }
    const contentType = String(response.headers['content-type'] ?? '');
    if (!contentType.includes('json')) return `${where}: documented as ${mediaType}, sent as "${contentType}"`;
    // NDJSON: the schema is that of each line.
    const ndjson = mediaType === 'application/x-ndjson';
    if (ndjson !== contentType.startsWith('application/x-ndjson')) return `${where}: documented as ${mediaType}, sent as "${contentType}"`;
    const texts = ndjson ? textOf(response).split('\n').filter((line) => line !== '') : [textOf(response)];
    const validate = this.validatorFor([...pointer, 'content', mediaType, 'schema']);
    for (const [index, text] of texts.entries()) {
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return `${where}: the body${ndjson ? `'s line ${index + 1}` : ''} is not valid JSON`;
      }
      if (!validate(body)) return `${where}: the body${ndjson ? `'s line ${index + 1}` : ''} does not match the documented schema:\n${formatErrors(validate.errors ?? [])}`;
    }
    return undefined;
  }

  /** Follows a `$ref` to `#/components/responses/…`, returning where the response object lives. */
  private resolve(pointer: string[], response: Json): [string[], Json] {
    const ref = response.$ref;
    if (typeof ref !== 'string') return [pointer, response];
    const segments = ref.replace(/^#\//, '').split('/');
    let target: unknown = this.document;
    for (const segment of segments) target = record(target)[segment];
    return [segments, record(target)];
  }

  private validatorFor(pointer: string[]): ValidateFunction {
    const ref = `${DOCUMENT_ID}#/${pointer.map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
    let validate = this.compiled.get(ref);
    if (validate === undefined) {
      validate = this.ajv.compile({ $ref: ref });
      this.compiled.set(ref, validate);
    }
    return validate;
  }
}

const validators = new Map<string, ResponseValidator>();

/** One validator per distinct document (every test app of a file serves the same one). */
export function responseValidatorFor(document: object): ResponseValidator {
  const key = JSON.stringify(document);
  let validator = validators.get(key);
  if (validator === undefined) {
    validator = new ResponseValidator(JSON.parse(key) as Json);
    validators.set(key, validator);
  }
  return validator;
}

/**
 * Replaces `app.inject` so that every response a test receives is checked against the OpenAPI
 * document; a mismatch rejects the inject with a message naming method, path, status and errors.
 */
export function validateResponses(app: App): void {
  const validator = responseValidatorFor(app.swagger());
  const original = app.inject.bind(app);
  const check = (response: LightMyRequestResponse): LightMyRequestResponse => {
    const problem = validator.problemOf(response);
    if (problem !== undefined) throw new Error(`Response does not match the OpenAPI document: ${problem}`);
    return response;
  };

  function inject(opts: InjectOptions | string, cb: LightMyRequestCallback): void;
  function inject(opts: InjectOptions | string): Promise<LightMyRequestResponse>;
  function inject(): LightMyRequestChain;
  function inject(opts?: InjectOptions | string, cb?: LightMyRequestCallback): Promise<LightMyRequestResponse> | LightMyRequestChain | void {
    if (opts === undefined) {
      throw new Error('use app.inject(options): the chained form bypasses the OpenAPI response validation of the test app');
    }
    // A streamed answer has no body to check yet: its reader checks it (event-stream-inject.ts).
    if (typeof opts === 'object' && opts.payloadAsStream === true && cb === undefined) return original(opts);
    if (cb === undefined) return original(opts).then(check);
    original(opts, (error, response) => {
      if (error !== undefined || response === undefined) return cb(error, response);
      let checked: LightMyRequestResponse;
      try {
        checked = check(response);
      } catch (problem) {
        return cb(problem instanceof Error ? problem : new Error(String(problem)), undefined);
      }
      cb(undefined, checked);
    });
  }
  app.inject = inject;
}

function templatePattern(template: string): RegExp {
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}

function formatErrors(errors: ErrorObject[]): string {
  return errors
    .slice(0, 10)
    .map((e) => `  ${e.instancePath || '(root)'} ${e.message ?? e.keyword} ${JSON.stringify(e.params)} [${e.schemaPath}]`)
    .join('\n');
}

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function record(value: unknown): Json {
  return isRecord(value) ? value : {};
}
