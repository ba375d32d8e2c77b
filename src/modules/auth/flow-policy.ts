import type { AuthMethod, ClientAccount, Flow } from './account.js';
import { unauthorized } from './unauthorized.js';

/** The flow matrix (docs/api.md#which-flows-an-account-may-use): Bearer on calls is allowed for every auth_method. */
export function flowEnabled(authMethod: AuthMethod, flow: Flow): boolean {
  return authMethod === 'both' || authMethod === flow;
}

export function requireFlowEnabled(client: ClientAccount, flow: Flow, headers?: Record<string, string>): void {
  if (!flowEnabled(client.authMethod, flow)) {
    const name = flow === 'api_key' ? 'API key' : 'OAuth';
    throw unauthorized('flow_not_enabled', `the ${name} flow is not enabled for this account`, headers);
  }
}

export function rejectDisabledClient(client: ClientAccount, headers?: Record<string, string>): void {
  if (client.disabled) throw unauthorized('client_disabled', 'this client account is disabled', headers);
}

/** Offboarded: checked before anything else, so a deleted client hears why on every route. */
export function rejectDeletedClient(client: ClientAccount, headers?: Record<string, string>): void {
  if (client.deletedAt !== null) throw unauthorized('client_deleted', 'this client account has been deleted', headers);
}
