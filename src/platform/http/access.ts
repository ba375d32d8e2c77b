import type { FastifyRequest } from 'fastify';

/**
 * The schema key naming the account tiers an operation is for (`['pro', 'enterprise']`); copied
 * into the operation of the document, which then lists 403 for it. Absent: every tier. The tiers
 * themselves are the auth module's vocabulary: here they are only strings.
 */
export const REQUIRED_TIERS = 'x-required-tiers';

/** A check that refuses callers outside some tiers (403), with the tiers it lets through. */
export interface TierAccess {
  readonly tiers: readonly string[];
  check(request: FastifyRequest): void;
}
