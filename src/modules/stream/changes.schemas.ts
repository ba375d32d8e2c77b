import { type Static, Type } from 'typebox';
import { MAX_ID } from '../../shared/wire.js';
import { HistoryItem } from '../history/index.js';
import { filterProperties } from './stream.schemas.js';

export const CHANGES_MAX_LIMIT = 1_000;
export const CHANGES_DEFAULT_LIMIT = 100;

export const ChangesQuery = Type.Object(
  {
    after: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_ID,
        description:
          'The id of the last change the client has (a `next_after`, or the `id` of an odds stream event: its `Last-Event-ID`). ' +
          '0, or none, starts with the oldest change kept. 422 (rule `minimum`) when the history’s retention has deleted changes after it; ' +
          '422 (rule `maximum`) above the id of the newest change.',
        example: 0,
      }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: CHANGES_MAX_LIMIT, description: `Changes per answer, 1 to ${CHANGES_MAX_LIMIT}; default ${CHANGES_DEFAULT_LIMIT}.`, example: 100 })),
    ...filterProperties,
  },
  { additionalProperties: false },
);
export type ChangesQuery = Static<typeof ChangesQuery>;

/** The one answer that is not the paged list's shape: a keyset cursor, as the stream's Last-Event-ID is. */
export const ChangesPage = Type.Object(
  {
    results: Type.Array(HistoryItem, { description: 'The price changes after `after` in id order (the order imports committed them), each as the odds stream sends it.' }),
    next_after: Type.Integer({
      minimum: 0,
      description: 'The `after` of the next call: the id of the last change in `results`, or `after` itself when there is none (the end, for now).',
    }),
  },
  { title: 'PriceChangesAfter', additionalProperties: false },
);

export const CHANGES_DESCRIPTION =
  'The price changes after an id, in id order: the odds stream’s replay as a keyset cursor. Each item is exactly the `data` of the ' +
  'stream’s `event: odds`, and its `id` the event’s `id`, so `after` and `Last-Event-ID` are one position: a client may read pages, ' +
  'then open the stream with `Last-Event-ID: <next_after>`, or the other way round, and miss nothing nor get anything twice. ' +
  'Page with `after=<next_after>` until `results` is empty. A price whose status changes (suspended, closed) is a change of its own. ' +
  '`event_ids` and `league_ids` filter as on the stream (404 for an unknown one). Board and settled events are not in it: they are not ' +
  'replayed on the stream either. The one answer that is not the paged list shape (`{results, next_after}`). Pro and enterprise tiers.';
