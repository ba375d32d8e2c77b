import type { Clock } from '../../platform/clock.js';
import type { Page, Paging } from '../../platform/pagination.js';
import { type UncachedList, uncachedList } from '../../platform/lists/uncached-lists.js';
import type { AccountCredentialKind } from '../auth/index.js';
import type { CredentialsService, ListedCredential } from '../clients/index.js';
import { type ApiKeyItem, apiKeyView, type SecretItem, secretView } from './credentials.schemas.js';

/** The item each kind of credential is listed as. */
interface CredentialItems {
  api_key: ApiKeyItem;
  client_secret: SecretItem;
}

/** The page a kind of credential is listed in. */
export type CredentialPage<Kind extends AccountCredentialKind> = Page<CredentialItems[Kind]>;

/** Whose credentials a listing shows. */
export interface CredentialFilters {
  clientId: string;
}

/**
 * The list of a client's API keys or client secrets as every listing answers it: the client's own
 * (/v1/account, and the portal through it), an operator's (admin API) and the CLI's.
 */
export type CredentialLists = { [Kind in AccountCredentialKind]: UncachedList<CredentialFilters, CredentialItems[Kind]> };

type ListingDeps = { credentials: CredentialsService; clock: Clock };

export function credentialLists(deps: ListingDeps): CredentialLists {
  const ids = (kind: AccountCredentialKind) => ({ clientId }: CredentialFilters) => deps.credentials.listedCodes(clientId, kind);
  return {
    api_key: uncachedList({
      name: 'api-keys',
      ids: ids('api_key'),
      async items(codes) {
        const listed = await deps.credentials.listed(codes);
        const now = deps.clock.now();
        return viewsOf(listed, (key) => apiKeyView(key, now));
      },
    }),
    client_secret: uncachedList({ name: 'client-secrets', ids: ids('client_secret'), items: async (codes) => viewsOf(await deps.credentials.listed(codes), secretView) }),
  };
}

/** A page of a client's credentials of one kind (the CLI's listing). */
export function listedCredentials<K extends AccountCredentialKind>(deps: ListingDeps, clientId: string, kind: K, paging: Paging): Promise<CredentialPage<K>> {
  return credentialLists(deps)[kind].page({ clientId }, paging);
}

function viewsOf<T>(listed: ReadonlyMap<string, ListedCredential>, view: (credential: ListedCredential) => T): Map<string, T> {
  return new Map([...listed].map(([code, credential]) => [code, view(credential)]));
}
