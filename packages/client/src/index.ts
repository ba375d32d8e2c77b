/**
 * The TypeScript client of the Sports Data B2B API. Start with {@link SportsDataClient}.
 *
 * @packageDocumentation
 */
export { SportsDataClient } from './client.js';
export type { ApiKeyOptions, ClientCredentialsOptions, CommonOptions, SportsDataClientOptions } from './options.js';
export { SportsDataError } from './errors.js';
export type { ApiErrorCode, ClientErrorCode, SportsDataErrorFields, UnauthorizedReason } from './errors.js';
export { MemoryTokenStore } from './token-store.js';
export type { TokenStore } from './token-store.js';
export type { RateLimitPolicy, RateLimitState, RateLimitWindow } from './rate-limit.js';
export type { RetryOptions } from './retry.js';
export type { ClientEvent, LoginEvent, RefreshEvent, RefreshFailedEvent, RetryEvent, UnauthorizedEvent } from './events.js';
export type { Call, CallOptions, CallWith, CallWithRequired, CursorCall, CursorPage, CursorParams, ItemOf, Page, PagedCall, PagedCallWithRequired } from './endpoint.js';
export type * from './generated/namespaces.js';
export type * from './generated/types.js';
export type {
  BoardChange,
  BoardChangeEvent,
  HeartbeatEvent,
  MoveEvent,
  OddsChangeEvent,
  OddsStreamEvent,
  OddsStreamOptions,
  OddsStreamParams,
  OddsStreamType,
  ReconnectedEvent,
  SettledEvent,
  StreamEndEvent,
} from './stream.js';
export { VERSION } from './version.js';
