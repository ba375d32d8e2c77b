import { type UncachedList, uncachedList } from '../../platform/lists/uncached-lists.js';
import type { ClientsService } from '../clients/index.js';
import type { LimitPolicy } from '../limits/index.js';
import { type ClientView, clientView } from './admin.schemas.js';

/** Which clients a listing shows: all, or those whose name contains `search`. */
export interface ClientFilters {
  search?: string | undefined;
}

/** The client accounts, oldest first, with the limits in force: the admin API's list and the CLI's. */
export function clientsList({ clients, limits }: { clients: ClientsService; limits: LimitPolicy }): UncachedList<ClientFilters, ClientView> {
  return uncachedList({
    name: 'clients',
    ids: ({ search }) => clients.listedIds(search),
    async items(ids) {
      const accounts = await clients.listed(ids);
      return new Map([...accounts].map(([id, account]) => [id, clientView(account, limits.effective(account))]));
    },
  });
}
