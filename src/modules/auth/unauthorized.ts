import { ApiError } from '../../platform/errors.js';

/** Why credentials were refused: the `reason` of every 401 (docs/api.md#errors), a closed list. */
export const UNAUTHORIZED_REASONS = [
  'missing_credentials',
  'invalid_credentials',
  'flow_not_enabled',
  'token_expired',
  'token_invalid',
  'refresh_token_revoked',
  'client_disabled',
  'credentials_mismatch',
  'client_deleted',
] as const;

export type UnauthorizedReason = (typeof UNAUTHORIZED_REASONS)[number];

/** 401 UNAUTHORIZED with its reason, and the challenge headers (WWW-Authenticate) when given. */
export function unauthorized(reason: UnauthorizedReason, message: string, headers?: Record<string, string>): ApiError {
  return new ApiError('UNAUTHORIZED', message, { reason, ...(headers ? { headers } : {}) });
}
