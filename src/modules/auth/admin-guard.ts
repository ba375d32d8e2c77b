import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../platform/errors.js';
import type { CredentialFailures } from './credential-failures.js';
import { secretsEqual } from './credentials.js';
import { unauthorized } from './unauthorized.js';

/**
 * onRequest hook for /admin/v1/*: `Authorization: Bearer $ADMIN_TOKEN`, compared in constant
 * time. Without ADMIN_TOKEN the admin API does not exist (404), so a deployment that has not
 * opted in exposes nothing.
 */
// RFC 9110 §11.6.1: a 401 names the scheme to authenticate with.
const ADMIN_CHALLENGE = { 'www-authenticate': 'Bearer realm="sports-data-api-admin"' };

/**
 * `failures`: a wrong token counts as a failed login from its source address, and past the limit
 * is 429 (a token that verifies is always served): the admin API is a guess's target as much as
 * the console's sign-in, which runs this same guard.
 */
export function adminGuard(adminToken: string | undefined, failures?: Pick<CredentialFailures, 'refusedApiKey'>) {
  return async (request: FastifyRequest): Promise<void> => {
    if (adminToken === undefined) throw new ApiError('NOT_FOUND', `no route for ${request.method} ${request.url.split('?')[0] ?? ''}`);
    const header = request.headers.authorization;
    if (header === undefined) throw unauthorized('missing_credentials', 'send Authorization: Bearer <admin token>', ADMIN_CHALLENGE);
    const match = /^Bearer +(\S+) *$/i.exec(header);
    if (match?.[1] && secretsEqual(match[1], adminToken)) return;
    const refused = unauthorized('invalid_credentials', 'the admin token is not valid', ADMIN_CHALLENGE);
    throw failures === undefined ? refused : await failures.refusedApiKey(request.ip, refused);
  };
}
