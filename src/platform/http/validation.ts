import { Ajv, type ErrorObject, type Options } from 'ajv';
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
  const ajv = httpPart === 'body' ? strict : coercing;
  return ajv.compile(schema as object);
};

/**
 * Turns ajv errors into our error shape: a wrong JSON type is 400 BAD_REQUEST, any other
 * broken rule 422 VALIDATION_ERROR; `details` names every field.
 */
export function fromValidationErrors(errors: readonly Partial<ErrorObject>[], where: string): ApiError {
  const details: ErrorDetail[] = errors.map((e) => ({ field: fieldOf(e), rule: e.keyword ?? 'invalid' }));
  const first = errors[0];
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
