/** The audit log of changes to client accounts: written in each change's transaction, read by clients and operators. */
export { type AuditActor, clientActor, LOCAL_OPERATOR, operatorActor, WEBHOOKS_SERVICE } from './audit.actor.js';
export { createAuditPurgeJob, purgeOldAudit } from './audit.purge.js';
export { AUDIT_ACTIONS, type AuditAction, type AuditChange, type AuditFields, type AuditRepository, createAuditRepository, recordAudit } from './audit.repository.js';
export { auditRoutes } from './audit.routes.js';
