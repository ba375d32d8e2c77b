import type { ListSource } from '../../platform/lists/paged-lists.js';

/** One reference list endpoint (the taxonomy's too): a list source and how a query becomes its filters. */
export interface ReferenceList<Q, F, T> extends ListSource<F, T> {
  filters(query: Q): F;
}
