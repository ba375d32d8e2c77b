import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import type { DataValidationCxt } from 'ajv/dist/types/index.js';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { ApiError, type ErrorDetail } from '../errors.js';

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

const common: Options = {
  allErrors: true,
  useDefaults: true,
  removeAdditional: false,
  strict: false,
  // strict: false would otherwise let "Infinity" and "1e400" through as numbers.
  strictNumbers: true,
  // The OpenAPI-only keywords TypeBox passes through.
  keywords: ['example', 'x-unit'],
};

/** Query strings and path parameters arrive as text: coerce "2" to 2, and "a" to a one-item array. */
const coercing = addFormats(new Ajv({ ...common, coerceTypes: 'array' }));
/** JSON bodies are typed already: "2" for an integer is a wrong type, not something to fix up. */
const strict = addFormats(new Ajv({ ...common, coerceTypes: false }));

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  if (httpPart === 'body') return strict.compile(schema as object);
  return refusingNonFinite(coercing.compile(schema as object), schema as object);
};

/**
 * ajv coerces the text "Infinity" (and "-Infinity") to a number that passes `type: integer`,
 * and then skips minimum and maximum, which it checks on finite numbers only: `page_size=Infinity`
 * was answered 200 with `"page_size":null` (decision 0032). A coerced value that is not finite is out
 * of its declared range: reported as `maximum` or `minimum`, a 422 naming the field.
 */
function refusingNonFinite(validate: ValidateFunction, schema: object): ValidateFunction {
  const checked = ((data: unknown, context?: DataValidationCxt) => {
    const valid = validate(data, context);
    const nonFinite = nonFiniteErrors(data, schema, '');
    checked.errors = nonFinite.length === 0 ? validate.errors : [...(validate.errors ?? []), ...nonFinite];
    return valid && nonFinite.length === 0;
  }) as ValidateFunction;
  // Fastify hands ajv's root-coercion context to validators that carry their schemaEnv.
  return Object.assign(checked, { schema: validate.schema, schemaEnv: validate.schemaEnv });
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
