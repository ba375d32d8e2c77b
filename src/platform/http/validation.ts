import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import type { DataValidationCxt } from 'ajv/dist/types/index.js';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { ApiError, type ErrorDetail } from '../errors.js';

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** The schema keyword (an OpenAPI extension) that says in words what a `pattern` takes. */
const EXPECTED = 'x-expected';

/**
 * A pattern with what it takes in words. A value that breaks it is told the words: a regular
 * expression in a 422's message (`must match pattern "^[0-9]{1,16}(,…"`) tells a person nothing.
 * The document shows both.
 */
export function matching(pattern: string, expected: string): { pattern: string; [EXPECTED]: string } {
  return { pattern, [EXPECTED]: expected };
}

const common: Options = {
  allErrors: true,
  useDefaults: true,
  removeAdditional: false,
  strict: false,
  // strict: false would otherwise let "Infinity" and "1e400" through as numbers.
  strictNumbers: true,
  // The OpenAPI-only keywords TypeBox passes through.
  keywords: ['example', 'x-unit', EXPECTED],
  // Errors carry the schema they broke, so that a broken pattern is told in its words (describe).
  verbose: true,
};

/** Query strings, path parameters and headers arrive as text: coerce "2" to 2, and "a" to a one-item array. */
const coercing = addFormats(new Ajv({ ...common, coerceTypes: 'array' }));
/** JSON bodies are typed already: "2" for an integer is a wrong type, not something to fix up. */
const strict = addFormats(new Ajv({ ...common, coerceTypes: false }));

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  if (httpPart === 'body') return strict.compile(schema as object);
  return coercingNumbersOnly(coercing.compile(schema as object), schema as object);
};

/**
 * ajv coerces text to a number as JavaScript does: "1e3", "0x5", "0b11", "+3", " 3" and "3.0"
 * all pass `type: integer`, so `/v1/historical/odds/1e3.csv` was event 1000. An integer written
 * in anything but decimal digits (with a minus sign, which makes a number below any id's
 * minimum) is refused as "abc" is, a wrong type (400), before ajv reads it.
 *
 * ajv also coerces "Infinity", and digits too many for a double, to a number that passes
 * `type: integer` and skips minimum and maximum, which it checks on finite numbers only:
 * `page_size=Infinity` was answered 200 with `"page_size":null`. A coerced value that is not
 * finite is out of its declared range: reported as `maximum` or `minimum`, a 422 naming the field.
 */
function coercingNumbersOnly(validate: ValidateFunction, schema: object): ValidateFunction {
  const checked = ((data: unknown, context?: DataValidationCxt) => {
    // Before ajv coerces the text in place.
    const notDecimal = notDecimalErrors(data, schema, '');
    const valid = validate(data, context);
    const nonFinite = nonFiniteErrors(data, schema, '');
    // Every request passes here: nothing more is allocated when every integer was written in digits.
    if (notDecimal.length === 0) {
      checked.errors = nonFinite.length === 0 ? validate.errors : [...(validate.errors ?? []), ...nonFinite];
      return valid && nonFinite.length === 0;
    }
    // A value refused as text is not also judged as the number ajv made of it.
    const refused = new Set(notDecimal.map((e) => e.instancePath));
    const others = [...(validate.errors ?? []), ...nonFinite].filter((e) => !refused.has(e.instancePath));
    const errors = [...notDecimal, ...others];
    checked.errors = errors.length === 0 ? validate.errors : errors;
    return valid && errors.length === 0;
  }) as ValidateFunction;
  // Fastify hands ajv's root-coercion context to validators that carry their schemaEnv.
  return Object.assign(checked, { schema: validate.schema, schemaEnv: validate.schemaEnv });
}

/** An integer in decimal digits, as a query string, path or header writes it. */
const DECIMAL_INTEGER = /^-?[0-9]+$/;

function notDecimalErrors(data: unknown, schema: unknown, path: string): ErrorObject[] {
  if (!isRecord(schema)) return [];
  if (typeof data === 'string') {
    // coerceTypes 'array': one value where a list of integers is taken is its one item.
    const target = schema.type === 'array' && isRecord(schema.items) ? schema.items : schema;
    if (target.type !== 'integer' || DECIMAL_INTEGER.test(data)) return [];
    return [{ instancePath: path, schemaPath: `#${path}/type`, keyword: 'type', params: { type: 'integer' }, message: 'must be integer' }];
  }
  if (Array.isArray(data)) return data.flatMap((item, index) => notDecimalErrors(item, schema.items, `${path}/${index}`));
  if (!isRecord(data) || !isRecord(schema.properties)) return [];
  const properties = schema.properties;
  return Object.entries(data).flatMap(([name, value]) => notDecimalErrors(value, properties[name], `${path}/${name}`));
}

function nonFiniteErrors(data: unknown, schema: unknown, path: string): ErrorObject[] {
  if (typeof data === 'number' && !Number.isFinite(data)) {
    const keyword = data > 0 ? 'maximum' : 'minimum';
    const limit = isRecord(schema) ? schema[keyword] : undefined;
    return [{ instancePath: path, schemaPath: `#${path}/${keyword}`, keyword, params: { limit }, message: 'must be finite' }];
  }
  if (Array.isArray(data)) {
    const items = isRecord(schema) ? schema.items : undefined;
    return data.flatMap((item, index) => nonFiniteErrors(item, items, `${path}/${index}`));
  }
  if (!isRecord(data)) return [];
  const properties = isRecord(schema) && isRecord(schema.properties) ? schema.properties : {};
  return Object.entries(data).flatMap(([name, value]) => nonFiniteErrors(value, properties[name], `${path}/${name}`));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Turns ajv errors into our error shape: a wrong JSON type is 400 BAD_REQUEST, any other
 * broken rule 422 VALIDATION_ERROR; `details` names every field.
 */
export function fromValidationErrors(errors: readonly Partial<ErrorObject>[], where: string): ApiError {
  const details: ErrorDetail[] = errors.map((e) => ({ field: fieldOf(e), rule: e.keyword ?? 'invalid' }));
  // An unknown field is most often a misspelt one (`leage_id` beside a missing `league_id`):
  // the message names it first, since fixing it fixes the rest.
  const first = errors.find((e) => e.keyword === 'additionalProperties') ?? errors[0];
  const subject = first ? fieldOf(first) || where : where;
  const message = first ? `${subject} ${describe(first)}` : `the ${where} is invalid`;
  const wrongType = errors.some((e) => e.keyword === 'type');
  return new ApiError(wrongType ? 'BAD_REQUEST' : 'VALIDATION_ERROR', message, { details: uniqueDetails(details) });
}

function describe(error: Partial<ErrorObject>): string {
  const params = (error.params ?? {}) as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not a known field';
    case 'maximum':
      return `must be at most ${String(params.limit)}`;
    case 'minimum':
      return `must be at least ${String(params.limit)}`;
    case 'const':
      return `must be ${JSON.stringify(params.allowedValue)}`;
    case 'enum':
      return `must be one of ${(params.allowedValues as unknown[] | undefined)?.join(', ') ?? 'the allowed values'}`;
    case 'pattern': {
      const expected = isRecord(error.parentSchema) ? error.parentSchema[EXPECTED] : undefined;
      return typeof expected === 'string' ? `must be ${expected}` : 'is not in the form its description gives';
    }
    default:
      return error.message ?? 'is invalid';
  }
}

/** `/teams/3/league_id` → `teams[3].league_id`; a missing property is named itself. */
export function fieldOf(error: Partial<ErrorObject>): string {
  const params = (error.params ?? {}) as Record<string, unknown>;
  const segments = (error.instancePath ?? '').split('/').filter((s) => s.length > 0);
  if (error.keyword === 'required' && typeof params.missingProperty === 'string') segments.push(params.missingProperty);
  if (error.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') segments.push(params.additionalProperty);
  return segments.reduce((path, segment) => (/^\d+$/.test(segment) ? `${path}[${segment}]` : path ? `${path}.${segment}` : segment), '');
}

function uniqueDetails(details: ErrorDetail[]): ErrorDetail[] {
  const seen = new Set<string>();
  return details.filter((d) => {
    const key = `${d.field}\u0000${d.rule}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
