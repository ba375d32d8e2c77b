import { type Static, Type } from 'typebox';
import { eventKindsQueryProperty } from '../../shared/event-kinds.js';
import { matching } from '../../platform/http/validation.js';
import { MAX_FILTER_ITEMS, MAX_ID } from '../../shared/wire.js';

/** Ids as a comma-separated list (`1,2,3`): digits only, at most MAX_FILTER_ITEMS of them. */
const IdList = (description: string, example: string) =>
  Type.Optional(
    Type.String({
      ...matching(`^[0-9]{1,16}(,[0-9]{1,16}){0,${MAX_FILTER_ITEMS - 1}}$`, `ids separated by commas (1,2,3): at most ${MAX_FILTER_ITEMS}, each of 1 to 16 digits`),
      description: `${description} Comma-separated ids, at most ${MAX_FILTER_ITEMS}; each must name a record (404 otherwise).`,
      example,
    }),
  );

/** Which price changes a client follows, on the stream and the change cursor alike: without either, every change; with both, a change of either. */
export const filterProperties = {
  event_ids: IdList('Changes of these events’ odds.', '1'),
  league_ids: IdList('Changes of the odds of these leagues’ events.', '12'),
  ...eventKindsQueryProperty,
};

export const StreamQuery = Type.Object(
  {
    ...filterProperties,
    types: Type.Optional(
      Type.String({
        ...matching('^(odds|board|settled|steam|drop)(,(odds|board|settled|steam|drop)){0,4}$', 'event types separated by commas: odds, board, settled, steam, drop'),
        description:
          'What the stream carries, comma-separated: `odds` (every price change, the default), `board` (a selection whose best, consensus or ' +
          'fair price changed), `settled` (an odds row graded), `steam` and `drop` (a steam move or a drop found, as POST /v1/odds/moves lists it). ' +
          'Board, settled, steam and drop events carry no `id` and are not replayed by `Last-Event-ID`.',
        example: 'odds,board',
      }),
    ),
  },
  { additionalProperties: false },
);
export type StreamQuery = Static<typeof StreamQuery>;

export const StreamHeaders = Type.Object({
  // Bounded as every id is: past 2^53 − 1 the header would name a change that never comes.
  'last-event-id': Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: MAX_ID,
      description:
        'The `id` of the last event received: the stream starts with the changes after it (sent by EventSource when it reconnects). ' +
        'Decimal digits, at most 2^53 − 1 and at most the id of the newest change (422 above it: no change has that id yet); ' +
        '0 starts with the oldest change kept.',
    }),
  ),
});
export type StreamHeaders = Static<typeof StreamHeaders>;

export const STREAM_DESCRIPTION =
  'A Server-Sent Events stream (`text/event-stream`) of odds changes as imports commit them. Each change is an event ' +
  '`event: odds`, `id: <history id>`, `data: <one price change, as POST /v1/odds/history-by-event lists it>`. ' +
  'A comment line (`: heartbeat`) goes out every 15 s. Reconnect with `Last-Event-ID` to receive exactly the changes ' +
  'missed; a client that falls behind catches up from the history on the same connection. The stream ends with ' +
  '`event: end`, `data: {"reason", "message"}` when a request with its credential would be refused: the access token ' +
  'expires (`token_expired`: refresh, then reconnect), the API key or secret expires (`credential_expired`) or is deleted ' +
  'or reset (`credentials_revoked`), the auth_method no longer allows API keys (`flow_not_enabled`), a downgrade leaves ' +
  'fewer places than open streams (`tier_changed`: the newest end), the client is disabled (`client_disabled`); or ' +
  'when the node shuts down (`server_shutdown`, with a short `retry`). With `types=board` (or `odds,board`) the stream also carries ' +
  '`event: board`, `data: {event_id, betting_market_id, event_period_id, player_id, position, is_main, line, event_betting_market_position_id, ' +
  'best, consensus, fair, changed}` whenever an import changes a selection\'s best price, consensus or consensus fair price (every book, decimal, ' +
  'multiplicative), on every node. Board events have no `id`: `Last-Event-ID` replays price changes only, from the history; after a reconnect, ' +
  'read the board again. With `types=settled` the stream carries `event: settled`, `data: <a graded odds row, as POST /v1/results/graded lists it>` ' +
  'for every grade with an outcome written while it is open (a first grade, or a new one after a correction), on every node; like board events ' +
  'they have no `id` and are not replayed: after a reconnect, read POST /v1/results/graded. With `types=steam` or `types=drop` the ' +
  'stream carries `event: steam` and `event: drop`, `data: <a move, as POST /v1/odds/moves lists it>`, for every move found while it is open ' +
  '(docs/data.md#steam-moves-and-drops), on every node; without an `id`, not replayed: after a reconnect, read POST /v1/odds/moves. Without event_ids and league_ids every change ' +
  'is streamed; with both, a change of either. Pro (5 open streams per client) and enterprise (50); over the cap 429. ' +
  'Never compressed or buffered.';

export const StreamBody = Type.String({
  description:
    'Server-Sent Events: `retry: 2000` first, then `event: odds` events (and `event: board` events with `types=board`, `event: settled` events with `types=settled`, `event: steam` and `event: drop` events with `types=steam,drop`), heartbeat comments and a final `event: end`.',
  example: 'id: 4711\nevent: odds\ndata: {"id":4711,"odds_id":12,"event_id":1,…}\n\n',
});

/** The kinds of event a stream may carry. */
export const STREAM_TYPES = ['odds', 'board', 'settled', 'steam', 'drop'] as const;
export type StreamType = (typeof STREAM_TYPES)[number];
