import type { ModuleRoutes } from '../../platform/http/types.js';
import { offsetOf, pageOf, type Paging } from '../../platform/pagination.js';
import { isUuid } from '../../platform/uuid.js';
import { principalOf } from '../auth/index.js';
import type { AuditRepository } from './audit.repository.js';
import { AccountAuditQuery, AdminAuditQuery, AuditPage, auditEntryView } from './audit.schemas.js';

const DESCRIPTION =
  'Every change to the account — onboarding, tier, limits, disabling, reset, offboarding, API keys and client secrets created or deleted — ' +
  'with who made it, from which address, and the fields before and after (never a credential). Newest first; kept AUDIT_RETENTION_DAYS.';

/** The audit log: a client's own entries, and every entry for operators. */
export const auditRoutes: ModuleRoutes<{ audit: AuditRepository }> = async (app, { audit }) => {
  const page = async (clientId: string | undefined, paging: Paging) => {
    const { entries, total } = await audit.page(clientId, offsetOf(paging), paging.page_size);
    return pageOf(entries.map(auditEntryView), total, paging);
  };

  app.get(
    '/v1/account/audit-log',
    {
      // Account state, counted against the minute only, like the account's other reads.
      config: { policy: { auth: 'client', tier: 'basics', limit: 'account', usage: 'account', cache: 'no-store' } },
      schema: { tags: ['account'], summary: "The calling client's audit log", description: DESCRIPTION, querystring: AccountAuditQuery, response: { 200: AuditPage } },
    },
    async (request) => page(principalOf(request).client.id, request.query),
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
    async (request) => {
      const { client_id, page: number, page_size } = request.query;
      // A client_id that is not a UUID names no client; it never reaches the database (a NUL would fail PostgreSQL).
      if (client_id !== undefined && !isUuid(client_id)) return pageOf([], 0, { page: number, page_size });
      return page(client_id, { page: number, page_size });
    },
  );
};
