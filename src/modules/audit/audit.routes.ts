import type { FastifyRequest } from 'fastify';
import type { ModuleRoutes } from '../../platform/http/types.js';
import { uncachedByRequest, uncachedList } from '../../platform/lists/uncached-lists.js';
import { isUuid } from '../../platform/uuid.js';
import { principalOf } from '../auth/index.js';
import type { AuditRepository } from './audit.repository.js';
import { AccountAuditQuery, AdminAuditQuery, AuditPage, auditEntryView } from './audit.schemas.js';

const DESCRIPTION =
  'Every change to the account — onboarding, tier, limits, disabling, reset, offboarding, API keys and client secrets created or deleted — ' +
  'with who made it, from which address, and the fields before and after (never a credential). Newest first; kept AUDIT_RETENTION_DAYS.';

/** The audit log: a client's own entries, and every entry for operators. */
export const auditRoutes: ModuleRoutes<{ audit: AuditRepository }> = async (app, { audit }) => {
  const list = uncachedList({
    name: 'audit-log',
    // A client_id that is not a UUID names no client; it never reaches the database (a NUL would fail PostgreSQL).
    ids: ({ clientId }: { clientId: string | undefined }) => (clientId !== undefined && !isUuid(clientId) ? Promise.resolve([]) : audit.ids(clientId)),
    async items(ids) {
      const entries = await audit.entries(ids);
      return new Map([...entries].map(([id, entry]) => [id, auditEntryView(entry)]));
    },
  });

  app.get(
    '/v1/account/audit-log',
    {
      // Account state, counted against the minute only, like the account's other reads.
      config: { policy: { auth: 'client', tier: 'basics', limit: 'account', usage: 'account', cache: 'no-store' } },
      schema: { tags: ['account'], summary: "The calling client's audit log", description: DESCRIPTION, querystring: AccountAuditQuery, response: { 200: AuditPage } },
    },
    uncachedByRequest(list, (request) => ({ clientId: principalOf(request).client.id })),
  );

  app.get(
    '/admin/v1/audit-log',
    {
      config: { policy: { auth: 'admin', cache: 'no-store' } },
      schema: {
        tags: ['admin'],
        summary: 'The audit log of every client',
        description: `${DESCRIPTION} \`client_id\` keeps one client's entries.`,
        querystring: AdminAuditQuery,
        response: { 200: AuditPage },
      },
    },
    uncachedByRequest(list, (request: FastifyRequest & { query: { client_id?: string } }) => ({ clientId: request.query.client_id })),
  );
};
