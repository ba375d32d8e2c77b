import type { Clock } from '../../platform/clock.js';
import { type Page, type Paging, pageOf } from '../../platform/pagination.js';
import type { AccountCredentialKind } from '../auth/index.js';
import type { CredentialsService } from '../clients/index.js';
import { type ApiKeyItem, apiKeyView, type SecretItem, secretView } from './credentials.schemas.js';

/** The page each kind of credential is listed in. */
export interface CredentialPages {
  api_key: Page<ApiKeyItem>;
  client_secret: Page<SecretItem>;
}

/**
 * A page of a client's API keys or client secrets as every listing answers it: the client's own
 * (/v1/account, and the portal through it), an operator's (admin API) and the CLI's.
 */
export async function listedCredentials<K extends AccountCredentialKind>(
  deps: { credentials: CredentialsService; clock: Clock },
  clientId: string,
  kind: K,
  paging: Paging,
): Promise<CredentialPages[K]> {
  const { items, total } = await deps.credentials.list(clientId, kind, paging);
  const pages: { [Kind in AccountCredentialKind]: () => CredentialPages[Kind] } = {
    api_key: () => {
      const now = deps.clock.now();
      return pageOf(items.map((key) => apiKeyView(key, now)), total, paging);
    },
    client_secret: () => pageOf(items.map(secretView), total, paging),
  };
  return pages[kind]();
}
