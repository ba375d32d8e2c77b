import type { Generated } from 'kysely';

/**
 * Table types shared by SQLite and PostgreSQL. Portable column types only:
 * timestamps are epoch milliseconds (integer / bigint), booleans are 0/1 integers,
 * UUIDs are text. See docs/decisions/0003-one-schema-for-sqlite-and-postgres.md.
 * The account columns (tier, auth_method, flow) are plain text here: their vocabulary
 * belongs to the auth module, whose repositories check each value they read.
 */
export interface Schema {
  tenants: TenantsTable;
  clients: ClientsTable;
  client_credentials: ClientCredentialsTable;
  refresh_tokens: RefreshTokensTable;
  change_versions: ChangeVersionsTable;
  sports: SportsTable;
  leagues: LeaguesTable;
  teams: TeamsTable;
  players: PlayersTable;
  operators: OperatorsTable;
  countries: KeyedTable;
  betting_market_categories: KeyedTable;
  betting_market_positions: KeyedTable;
  betting_markets: BettingMarketsTable;
  event_periods: EventPeriodsTable;
  events: EventsTable;
  competitions: CompetitionsTable;
  competition_participants: CompetitionParticipantsTable;
  odds: OddsTable;
  odds_outrights: OddsOutrightsTable;
  flows: FlowsTable;
  flow_legs: FlowLegsTable;
  tag_dimensions: KeyedTable;
  tag_types: TagTypesTable;
  flow_tags: FlowTagsTable;
  subnational_regions: SubnationalRegionsTable;
  selections: SelectionsTable;
  usage_daily: UsageDailyTable;
  odds_history: OddsHistoryTable;
  check_endpoints: CheckEndpointsTable;
  player_statistics: PlayerStatisticsTable;
  event_period_scores: EventPeriodScoresTable;
  player_event_statistics: PlayerEventStatisticsTable;
  odds_grades: OddsGradesTable;
  grading_due: GradingDueTable;
  audit_log: AuditLogTable;
  usage_hourly: UsageHourlyTable;
  usage_refusals: UsageRefusalsTable;
  usage_webhook_deliveries: UsageWebhookDeliveriesTable;
  feed_cursors: FeedCursorsTable;
  board_changes: BoardChangesTable;
  external_ids: ExternalIdsTable;
  aliases: AliasesTable;
  source_queue: SourceQueueTable;
  leases: LeasesTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_payloads: WebhookPayloadsTable;
  webhook_attempts: WebhookAttemptsTable;
  webhook_outbox: WebhookOutboxTable;
  webhook_edges: WebhookEdgesTable;
  signals: SignalsTable;
  odds_moves: OddsMovesTable;
}

export interface TenantsTable {
  id: string;
  created_at: number;
}

export interface ClientsTable {
  id: string;
  tenant_id: string;
  name: string;
  /** One of TIERS (modules/auth). */
  tier: string;
  /** One of AUTH_METHODS (modules/auth). */
  auth_method: string;
  disabled: number;
  /** An operator's override of the tier's per-minute rate; null: the tier's. */
  rate_limit_per_minute: number | null;
  /** An operator's override of the tier's daily quota; null: the tier's. */
  daily_quota: number | null;
  /** One of FLOW_VOCABULARIES (modules/auth): the names its flow answers give flow_type in. */
  flow_vocabulary: Generated<string>;
  /**
   * Moves on every operator reset and on deletion. Access tokens and refresh-token families
   * carry the generation they were issued in; an older one is refused at once.
   */
  credential_generation: number;
  /** Offboarded (soft delete: the row stays, so that usage history keeps its client). */
  deleted_at: number | null;
  created_at: number;
  updated_at: number;
}

/** The API keys and client secrets of a client: several live at once, each stored as a digest. */
export interface ClientCredentialsTable {
  /** The public id of the credential (UUID): `key_code` or `secret_code` on the wire. */
  code: string;
  client_id: string;
  /** One of ACCOUNT_CREDENTIALS (modules/auth): `api_key` or `client_secret`. */
  kind: string;
  /** SHA-256 (hex) of the credential; the credential itself is never stored. */
  digest: string;
  name: string;
  /** The typed prefix and the last 4 characters, e.g. `sdk_…a1B2` (just the prefix for a migrated one). */
  preview: string;
  created_at: number;
  expires_at: number | null;
  /** Kept to the minute, written in batches (decision 0102). */
  last_used_at: number | null;
  deleted_at: number | null;
}

export interface RefreshTokensTable {
  /** SHA-256 (hex) of the opaque refresh token. */
  digest: string;
  client_id: string;
  /** Every token descended from one login shares the family id of that login. */
  family_id: string;
  /** The flow that issued it: one of FLOWS (modules/auth). */
  flow: string;
  /** The credential (client_credentials.code) whose login started the family. */
  credential_code: string | null;
  /** The client's credential_generation when the family started. */
  generation: number;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
  /** Why it was revoked: one of REVOCATION_REASONS (modules/auth); null when revoked before reasons were kept. */
  revoked_reason: string | null;
}

/** Monotonic counters other nodes poll to drop their caches (names: 'clients', 'data'). */
export interface ChangeVersionsTable {
  name: string;
  version: number;
  /** When the version last moved, epoch ms on the database's clock (null until then): change_feed_lag_seconds. */
  changed_at: number | null;
}

export interface SportsTable {
  id: number;
  key: string;
  name: string;
}

export interface LeaguesTable {
  id: number;
  key: string;
  name: string;
  sport_id: number;
  country_key: string | null;
  country_name: string | null;
  /** 1 for a league clients feature first, else 0. */
  is_popular: number;
}

export interface TeamsTable {
  id: number;
  key: string;
  name: string;
  abbreviation: string | null;
  location: string | null;
  league_id: number;
}

export interface PlayersTable {
  id: number;
  key: string;
  name: string;
  position: string | null;
  team_id: number;
}

export interface OperatorsTable {
  id: number;
  key: string;
  name: string;
  /** Deep-link templates, checked at import (shared/deep-links.ts); null: no link to that app. */
  bet_web_deep_link_template: Generated<string | null>;
  bet_ios_deep_link_template: Generated<string | null>;
  bet_android_deep_link_template: Generated<string | null>;
}

/** A reference record with nothing but its key and name: countries, market categories and positions. */
export interface KeyedTable {
  id: number;
  key: string;
  name: string;
}

export interface EventPeriodsTable {
  id: number;
  key: string;
  name: string;
  sport_id: number;
}

export type EntityType = 'team' | 'player' | 'event';

export interface BettingMarketsTable {
  id: number;
  key: string;
  name: string;
  /** The category's key (kept from imports that name the category by text). */
  category: string;
  /** The category record, or null when the category text names none. */
  category_id: number | null;
  entity_type: EntityType;
  sport_id: number | null;
  /** How the market's selections are graded (one of SETTLEMENT_RULES, shared/settlement); null: not graded. */
  settlement_rule: string | null;
  /** The player statistic a player-prop market settles on (a player_statistics key). */
  settlement_stat: string | null;
  /** The key of the event period the market settles on; null: the event's final score. */
  settlement_period: string | null;
}

export interface EventsTable {
  id: number;
  league_id: number;
  /** Derived from the league at import. */
  sport_id: number;
  start_time: number;
  /** One of EVENT_STATUSES (shared/event-status.ts). */
  status: string;
  home_team_id: number;
  away_team_id: number;
  /** Both null, or both set: the score as the feed last reported it. */
  home_score: number | null;
  away_score: number | null;
  /** Epoch ms: when the event first became final (an import's time); null before, and for events final before it was recorded. */
  ended_at: Generated<number | null>;
  /** One of EVENT_KINDS: a matchup of home and away (every event stored before 0040), or a competition (its teams are 0). */
  kind: Generated<string>;
}

/** What an event is: home against away, or a competition of N participants (decision 0325). */
export const EVENT_KINDS = ['matchup', 'competition'] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

/** What a competition is: a tournament, a race, or a futures market over a season (league winner, top scorer, MVP). */
export const COMPETITION_TYPES = ['tournament', 'race', 'futures'] as const;
export type CompetitionType = (typeof COMPETITION_TYPES)[number];

/** What a competition's participants are. */
export const PARTICIPANT_TYPES = ['team', 'player'] as const;
export type ParticipantType = (typeof PARTICIPANT_TYPES)[number];

/** The competition of an event whose kind is `competition`: its name, what it is, and its end. */
export interface CompetitionsTable {
  /** The event's id: a competition is an event of kind `competition`. */
  id: number;
  name: string;
  /** One of COMPETITION_TYPES. */
  type: string;
  /** One of PARTICIPANT_TYPES. */
  participant_type: string;
  /** Epoch ms: the scheduled end (the last round, the season's end). */
  end_time: number;
}

/**
 * One participant of a competition (the feed's id), a team or a player, with its finishing result once
 * known: a position (ties share it, T5) when it finished, or how it left (FINISH_STATUSES, shared/settlement/outrights.ts).
 */
export interface CompetitionParticipantsTable {
  id: number;
  event_id: number;
  team_id: number | null;
  player_id: number | null;
  /** The team's or player's name when imported: what odds positions and answers show. */
  name: string;
  finish_position: number | null;
  /** One of FINISH_STATUSES; null: no result yet. */
  finish_status: string | null;
}

export interface OddsTable {
  id: number;
  event_id: number;
  operator_id: number;
  betting_market_id: number;
  position: string;
  line: number | null;
  price_decimal: number;
  status: string;
  updated_at: number;
  /** The selection priced (SelectionsTable); null only between the migration and the rows' next import. */
  selection_id: number | null;
  /** The player of a player prop (the market's entity_type is player); null otherwise. */
  player_id: number | null;
  /** The period priced; null: the full game. */
  event_period_id: number | null;
  /** 1: the main line of the market for this operator; 0: an alternate line. */
  is_main: Generated<number>;
  /** 1: priced while the event is live. */
  is_live: Generated<number>;
  /** The operator's own id of the selection, which its deep-link templates name. */
  operator_selection_id: Generated<string | null>;
}

/**
 * What an odds row of a competition's many-outcome market says beyond the matchup columns (decision
 * 0325): the participant it backs, its rivals in a matchup between participants, and the book's
 * each-way terms for the price. Rows of matchups have none.
 */
export interface OddsOutrightsTable {
  odds_id: number;
  event_id: number;
  participant_id: number;
  /** The rivals' participant ids, ascending, comma-separated (a 2- or 3-way matchup); null otherwise. */
  rival_ids: string | null;
  /** The fraction of the win odds paid on a place (0.2 for 1/5), and the places paid; both null without each-way terms. */
  each_way_fraction: number | null;
  each_way_places: number | null;
}

/**
 * A priced selection with its own id (Odditt's event_betting_market_position_id), keyed by event,
 * market, period, position, line and player; assigned once when first seen, never recomputed.
 * Key parts are '' for "none": the full game has no period, and the player stays '' because the
 * position text already names a prop's player.
 */
export interface SelectionsTable {
  id: number;
  event_id: number;
  betting_market_id: number;
  period: string;
  position: string;
  line: number | null;
  /** The line as the key holds it: '' for none, else the number as JavaScript prints it. */
  line_key: string;
  player: string;
}

export type FlowType = 'fact' | 'fun' | 'plain';
export type BetType = 'single' | 'parlay';
export type Likelihood = 'likely' | 'possible' | 'longshot';
/** Odditt's sub-types of a fact flow: a plain trend, a trend under a condition, several trends in one. */
export const FACT_FLOW_TYPES = ['base', 'expanded', 'multi'] as const;
export type FactFlowType = (typeof FACT_FLOW_TYPES)[number];

export const FLOW_SOURCES = ['computed', 'imported'] as const;
export type FlowSource = (typeof FLOW_SOURCES)[number];

export interface FlowsTable {
  id: number;
  flow_type: FlowType;
  /** Derived at import: parlay when the flow has legs. */
  bet_type: BetType;
  event_id: number;
  /** Derived from the event at import. */
  sport_id: number;
  league_id: number;
  focus_entity_type: EntityType;
  focus_entity_id: number | null;
  betting_market_id: number | null;
  line: number | null;
  split: 'over' | 'under' | null;
  description: string;
  hits: number;
  total: number;
  /** hits / total × 100, stored for range filters. */
  hit_rate_pct: number;
  likelihood: Likelihood;
  price_decimal: number | null;
  /** 1 / price_decimal to 4 decimals, stored for range filters; null without a price. */
  implied_probability: number | null;
  /** The games behind hits / total, a JSON array of {date, opponent_team_id, hit}; null when not imported. */
  hit_history: string | null;
  updated_at: number;
  /** The selection the single bets on; null for a parlay and for a flow naming no position. */
  selection_id: number | null;
  /** The sub-type of a fact flow (FACT_FLOW_TYPES); `base` for every other flow (the column's default). */
  fact_flow_type: FactFlowType;
  /** `computed`: hits, total and hit_history come from the graded results; `imported` (the default): from the import. */
  source: FlowSource;
  /** 1 when the import's hits or total disagreed with the results the flow was computed from. */
  disagrees: number;
}

/**
 * Price history: one row per recorded change of an odds row's price, line or status (the first
 * import of a row records its opening, with every `*_from` null). The id grows with every row
 * written, in commit order (imports run one at a time), so "rows after id N" is what a stream
 * client missed (docs/decisions/0121).
 */
export interface OddsHistoryTable {
  id: Generated<number>;
  odds_id: number;
  event_id: number;
  /** The odds row's operator, market and selection when the change was recorded. */
  operator_id: number;
  betting_market_id: number;
  position: string;
  /** Epoch ms: the dataset's updated_at for the row, else the time of the import. */
  changed_at: number;
  /** Epoch ms: when the change was recorded (the import's time); the retention counts from it (docs/decisions/0299). */
  recorded_at: number;
  price_from: number | null;
  price_to: number;
  line_from: number | null;
  line_to: number | null;
  status_from: string | null;
  status_to: string;
}

/** A node of the flow tag taxonomy (docs/data.md#flow-tags). */
export interface TagTypesTable {
  id: number;
  key: string;
  name: string;
  dimension_id: number;
  /** null: a top-level tag type of its dimension. */
  parent_id: number | null;
  /** 0/1: a tag flows carry and are filtered by; null: decided on read (no children but values). */
  terminal: number | null;
  /** 0/1: a value-level leaf, listed in its parent's known_values. */
  is_value: number;
  /** Comma-separated flow types (`fact,fun`); null: every type. */
  flow_types: string | null;
}

export interface FlowTagsTable {
  flow_id: number;
  tag_type_id: number;
}

export interface SubnationalRegionsTable {
  id: number;
  key: string;
  name: string;
  /** The region's short code, e.g. `NJ`. */
  code: string;
  country_id: number;
}

export interface FlowLegsTable {
  flow_id: number;
  leg_id: number;
  position: number;
}

/**
 * Requests a client was charged for, per UTC day and route group (references, events, odds,
 * trends, results, account). Kept for billing: no foreign key, so a client's history outlives it.
 */
export interface UsageDailyTable {
  client_id: string;
  /** YYYY-MM-DD, UTC. */
  day: string;
  route_group: string;
  requests: number;
}

/**
 * Changes to client accounts, one row per change, written in the change's transaction: who made
 * it (an operator or the client, by which credential or token, from which address), what it
 * changed (JSON of the fields before and after, never a credential), and when.
 */
export interface AuditLogTable {
  id: Generated<number>;
  at: number;
  /** The client the change is about. */
  client_id: string;
  action: string;
  actor_type: string;
  actor_via: string;
  actor_client_id: string | null;
  actor_credential_code: string | null;
  actor_token_id: string | null;
  source_address: string | null;
  before: string | null;
  after: string | null;
}

/** Requests of a client in one UTC hour (`hour`: epoch ms of its start) and route group. */
export interface UsageHourlyTable {
  client_id: string;
  hour: number;
  route_group: string;
  requests: number;
}

/** Webhook deliveries a client's endpoints acknowledged (2xx) on one UTC day: counted beside its requests, never as one. */
export interface UsageWebhookDeliveriesTable {
  client_id: string;
  day: string;
  deliveries: number;
}

/** Requests of a client refused 429 in one UTC minute (`minute`: epoch ms of its start), by the window that was exhausted. */
export interface UsageRefusalsTable {
  client_id: string;
  minute: number;
  window: string;
  refusals: number;
}

/**
 * 'board': board changes were stored (board_changes), for the nodes' streams; 'webhooks': webhook
 * deliveries were formed, for every node's dispatcher; 'moves': steam moves and drops were stored
 * (odds_moves), for the streams and the webhooks' former. None follows a cache.
 */
export const CHANGE_VERSION_NAMES = ['clients', 'data', 'board', 'webhooks', 'moves'] as const;
export type ChangeVersionName = (typeof CHANGE_VERSION_NAMES)[number];

/** A client's check endpoint, the pricing URL quotes are sent to (one per client). */
export interface CheckEndpointsTable {
  client_id: string;
  url: string;
  method: string;
  /** The auth token, AES-256-GCM encrypted under ENCRYPTION_KEY; never stored in clear. */
  auth_token_sealed: string;
  /** What answers show of the token: its last four characters. */
  auth_token_preview: string;
  auth_header_name: string;
  /** Empty: the header carries the token alone. */
  auth_scheme: string;
  allow_multiple: number;
  created_at: number;
  updated_at: number;
}

/** A statistic players are graded on (points, rebounds, goals…), per sport. */
export interface PlayerStatisticsTable {
  id: number;
  key: string;
  name: string;
  sport_id: number;
}

/** The score of one period of an event (a half, a quarter, regulation time). */
export interface EventPeriodScoresTable {
  event_id: number;
  event_period_id: number;
  home_score: number;
  away_score: number;
}

/** One player's statistic in one event (the whole game); a player without rows did not play. */
export interface PlayerEventStatisticsTable {
  event_id: number;
  player_id: number;
  /** A player_statistics key of the event's sport. */
  statistic: string;
  value: number;
}

/**
 * Every grading of an odds row: the current one has superseded_at null; a regrading after a
 * correction supersedes it, and both stay. `outcome` null: not gradable, `reason` says why.
 */
export interface OddsGradesTable {
  id: Generated<number>;
  odds_id: number;
  event_id: number;
  graded_at: number;
  outcome: string | null;
  reason: string | null;
  rule: string | null;
  /** The numbers the grade used (GradeNumbers, shared/settlement), as JSON. */
  used: string | null;
  /** The row's last price and line before the event started (from the price history). */
  closing_price: number | null;
  closing_line: number | null;
  superseded_at: number | null;
}

/**
 * An event whose grading an import made due: written in the import's transaction, deleted in the
 * transaction that grades the event. A node stopped between the two leaves the row, and the next
 * node to start grades the event before it serves (decision 0280).
 */
/** How far a history processor has come: the newest price-history id whose work it has stored. */
/** Work one node does at a time (the upstream feed): who holds it, until when (epoch ms) unless renewed. */
export interface LeasesTable {
  name: string;
  holder: string;
  expires_at: number;
}

export interface FeedCursorsTable {
  name: string;
  last_id: number;
}

/** The board changes a history processor computed from the changes up to `history_id`, for the streams; kept briefly (not replayed). */
export interface BoardChangesTable {
  /** The newest price-history id of the changes it was computed from. */
  history_id: number;
  /** JSON: the board changes, each with its event's league ({change, leagueId}). */
  changes: string;
  created_at: number;
}

export interface GradingDueTable {
  event_id: number;
  /** When the import that made it due committed (epoch ms). */
  due_at: number;
}

/** A record's key in an outside source (decision 0295): the source's own id of an event, its name of a team, its code of a league or book. */
export interface ExternalIdsTable {
  /** One of SOURCES (modules/sources). */
  source: string;
  /** sport, league, team, event or operator. */
  entity_type: string;
  external_id: string;
  entity_id: number;
  /** 1 when the source made the record (it owns it: a native import may not write over it); 0 when its key was matched to a record already there. */
  created: number;
  created_at: number;
}

/** A name of a source bound to one of our records by the operator (decision 0296). */
export interface AliasesTable {
  source: string;
  /** sport, league, team or operator. */
  entity_type: string;
  /** The name normalised (modules/sources/source-names.ts): what a row's name is compared by. */
  name_key: string;
  /** The scope the name holds in: a team's league, a league's sport; 0 for sports and operators. */
  scope_id: number;
  /** The name as given. */
  name: string;
  entity_id: number;
  created_at: number;
}

/** A source row waiting for a name no rule matched (the review queue, decision 0296); one per event key of a source. */
export interface SourceQueueTable {
  source: string;
  event_key: string;
  /** The SourceRow as JSON. */
  row: string;
  /** JSON array of the names it waits for: `{entity_type, name, scope_id}`. */
  unmatched: string;
  queued_at: number;
}

/** A client's webhook endpoint (decision 0305). */
export interface WebhookEndpointsTable {
  /** Public id, `ep_` and random characters. */
  id: string;
  client_id: string;
  url: string;
  description: string;
  /** JSON array of event type names (WEBHOOK_EVENT_TYPES). */
  event_types: string;
  /** JSON object: sport_ids, league_ids, event_ids, betting_market_ids, operator_ids, min_edge (each optional). */
  filters: string;
  enabled: number;
  /** Why it was disabled: 'client' (by a request), 'gone' (it answered 410), 'retries_exhausted'. */
  disabled_reason: string | null;
  disabled_at: number | null;
  /** The signing secret (`whsec_…`), AES-256-GCM encrypted under the service's encryption key. */
  secret_sealed: string;
  /** The secret before the latest rotation, still signing beside the new one until it expires. */
  previous_secret_sealed: string | null;
  previous_secret_expires_at: number | null;
  /** The newest sequence number given to one of its deliveries (0: none yet). */
  last_sequence: number;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
}

/** One message to one endpoint: its webhook-id, its sequence, and its payload, signed anew at each attempt. */
export interface WebhookDeliveriesTable {
  /** The webhook-id header: `msg_` and random characters, the same on every attempt and replay. */
  id: string;
  endpoint_id: string;
  /** Gapless and increasing per endpoint; null for a test delivery. */
  sequence: number | null;
  type: string;
  /**
   * JSON: the payload's `data`, its sequence included; with a payload_id, only `{"sequence":N}`,
   * the payload's members joined after it when read.
   */
  data: string;
  /** The members (`"changes":[…]`) it shares with other endpoints' deliveries of the same changes; null: all in `data`. */
  payload_id: number | null;
  /** 'pending' (to be sent or retried), 'delivered', 'failed' (every retry failed), 'test'. */
  state: string;
  attempts: number;
  /** When the next attempt is due (epoch ms); null once none is. */
  next_attempt_at: number | null;
  /** The node making an attempt now, and until when that claim holds. */
  lease_holder: string | null;
  lease_expires_at: number | null;
  /** When the newest change it carries was recorded: the start of its commit-to-2xx latency. */
  changed_at: number;
  created_at: number;
  delivered_at: number | null;
}

/**
 * What deliveries of the same changes to several endpoints share (decision 0322): the JSON text
 * of their data's members, stored once, not once per endpoint.
 */
export interface WebhookPayloadsTable {
  id: Generated<number>;
  members: string;
  created_at: number;
}

/** One attempt to deliver: when, the answer's status (null: none came), how long, the answer's first 1 KiB. */
export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: string;
  attempted_at: number;
  status_code: number | null;
  latency_ms: number;
  response_excerpt: string;
  /** Why no answer came (timeout, refused address, connection failure); null when one did. */
  error: string | null;
}

/** Events of the rare kinds (event.updated, result.graded) recorded by the transaction that made them, until the former takes them. */
export interface WebhookOutboxTable {
  id: Generated<number>;
  type: string;
  /** JSON: the event's data, as deliveries carry it. */
  data: string;
  sport_id: number | null;
  league_id: number | null;
  event_id: number | null;
  created_at: number;
}

/**
 * The last edge the webhooks' former knew of each value bet (a selection) and arbitrage (a market
 * at one line size) of the markets it has looked at (decision 0316): edge.found tells an edge
 * when it crosses an endpoint's min_edge from below, not while it stays above.
 */
export interface WebhookEdgesTable {
  /** 'value' or 'arbitrage'. */
  kind: string;
  /** The selection's or the market's key, as the board groups rows (board.selections.ts). */
  key: string;
  event_id: number;
  betting_market_id: number;
  /** A fraction, unrounded: the best EV% ÷ 100 of the selection, or the arbitrage's profit% ÷ 100. */
  edge: number;
  updated_at: number;
}

/**
 * The detector's record (decision 0321): one row per appearance of a signal (type, selection,
 * book), from when it was detected to when it no longer held, with its grade and closing-line value.
 */
export interface SignalsTable {
  id: Generated<number>;
  /** 'value', 'arbitrage', 'middle', 'steam' or 'drop'. */
  type: string;
  /** What it is a signal of, across runs: type, selection (or market at a line size) and book(s). */
  key: string;
  event_id: number;
  betting_market_id: number;
  /** The selection bet on (value, steam, drop); null for several legs. */
  selection_id: number | null;
  operator_id: number | null;
  position: string | null;
  line: number | null;
  /** The decimal price bet (one leg); null for several legs. */
  price: number | null;
  fair_probability: number | null;
  /** A fraction: EV% ÷ 100 of a value bet, profit% ÷ 100 of an arbitrage or middle; null for a move. */
  edge: number | null;
  /** A move's size: implied-probability points (steam) or percent (drop). */
  move_size: number | null;
  /** JSON: the bets the signal stands for, [{selection_id, operator_id, price, stake}], stakes summing to 1. */
  legs: string;
  detected_at: number;
  ended_at: number | null;
  outcome: string | null;
  /** Won or lost per unit staked: the legs' returns less the stake. */
  profit: number | null;
  closing_price: number | null;
  clv_pct: number | null;
  graded_at: number | null;
}

/** A steam move or a drop (docs/data.md#steam-moves-and-drops), found once as the imports landed; kept with the price history. */
export interface OddsMovesTable {
  id: Generated<number>;
  /** 'steam' or 'drop'. */
  kind: string;
  /** The price change that made the move: the moves are stored in its order. */
  history_id: number;
  event_id: number;
  league_id: number | null;
  betting_market_id: number;
  event_period_id: number | null;
  player_id: number | null;
  position: string;
  /** 1: a main-line selection (each book at its own line); 0: an alternate line, `line`. */
  is_main: number;
  line: number | null;
  /** The board's key of the selection (event, market, period, subject, line, position). */
  selection_key: string;
  /** A drop's book; null for a steam move. */
  operator_id: number | null;
  /** JSON: the books that moved, by operator id (a drop's one book). */
  operator_ids: string;
  /** The odds row whose change made the move. */
  odds_id: number;
  /** A drop's book's prices; a steam move's books' median prices, before and after. */
  from_price: number;
  to_price: number;
  /** Implied-probability points (steam: the least of its books') or percent of the decimal price (drop). */
  size: number;
  book_count: number;
  /** JSON: each book's part (moves.detect.ts MoveBook). */
  books: string;
  window_seconds: number;
  /** Epoch ms: the first change of the move within the window; changed_at: the change that made it; detected_at: when it was found. */
  started_at: number;
  changed_at: number;
  detected_at: number;
}
