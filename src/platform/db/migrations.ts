import type { Schema } from './schema.js';
import { type Kysely, SqliteAdapter, sql } from 'kysely';
import { type Migration, type MigrationProvider, type MigrationResultSet, Migrator } from 'kysely/migration';
import { credentialsMigration } from './migration-0011-credentials.js';

/**
 * One set of migrations for both dialects, written with Kysely's schema builder and portable
 * column types only (text, integer, bigint, double precision).
 */
export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '0001_clients_and_tokens': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('tenants')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('clients')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('tier', 'text', (c) => c.notNull())
        .addColumn('auth_method', 'text', (c) => c.notNull())
        .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('api_key_digest', 'text', (c) => c.notNull().unique())
        .addColumn('client_secret_digest', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('clients_tenant_idx').on('clients').column('tenant_id').execute();
      await db.schema
        .createTable('refresh_tokens')
        .addColumn('digest', 'text', (c) => c.primaryKey())
        .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id'))
        .addColumn('family_id', 'text', (c) => c.notNull())
        .addColumn('flow', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('revoked_at', 'bigint')
        .execute();
      await db.schema.createIndex('refresh_tokens_family_idx').on('refresh_tokens').column('family_id').execute();
      await db.schema.createIndex('refresh_tokens_client_idx').on('refresh_tokens').column('client_id').execute();
      await db.schema
        .createTable('change_versions')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('version', 'bigint', (c) => c.notNull())
        .execute();
      await sql`insert into change_versions (name, version) values ('clients', 0), ('data', 0)`.execute(db);
    },
  },
  '0002_sports_data': {
    async up(db: Kysely<unknown>) {
      // SQLite only makes an INTEGER PRIMARY KEY the fast rowid key; PostgreSQL wants bigint.
      const id = db.getExecutor().adapter instanceof SqliteAdapter ? 'integer' : 'bigint';
      // Data tables carry no foreign keys: the import validates every reference of a dataset
      // before writing, and upserts by the upstream's ids (docs/decisions/0006-import.md).
      for (const table of ['sports', 'operators']) {
        await db.schema
          .createTable(table)
          .addColumn('id', id, (c) => c.primaryKey())
          .addColumn('key', 'text', (c) => c.notNull())
          .addColumn('name', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex(`${table}_key_idx`).on(table).column('key').execute();
      }
      await db.schema
        .createTable('leagues')
        .addColumn('id', id, (c) => c.primaryKey())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('sport_id', 'bigint', (c) => c.notNull())
        .addColumn('country_key', 'text')
        .addColumn('country_name', 'text')
        .execute();
      await db.schema.createIndex('leagues_key_idx').on('leagues').column('key').execute();
      await db.schema.createIndex('leagues_sport_idx').on('leagues').columns(['sport_id', 'id']).execute();
      await db.schema
        .createTable('teams')
        .addColumn('id', id, (c) => c.primaryKey())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('abbreviation', 'text')
        .addColumn('location', 'text')
        .addColumn('league_id', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('teams_key_idx').on('teams').column('key').execute();
      await db.schema.createIndex('teams_league_idx').on('teams').columns(['league_id', 'id']).execute();
      await db.schema
        .createTable('players')
        .addColumn('id', id, (c) => c.primaryKey())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('position', 'text')
        .addColumn('team_id', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('players_key_idx').on('players').column('key').execute();
      await db.schema.createIndex('players_team_idx').on('players').columns(['team_id', 'id']).execute();
      await db.schema
        .createTable('betting_markets')
        .addColumn('id', id, (c) => c.primaryKey())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('category', 'text', (c) => c.notNull())
        .addColumn('entity_type', 'text', (c) => c.notNull())
        .addColumn('sport_id', 'bigint')
        .execute();
      await db.schema
        .createTable('events')
        .addColumn('id', id, (c) => c.primaryKey())
        .addColumn('league_id', 'bigint', (c) => c.notNull())
        .addColumn('sport_id', 'bigint', (c) => c.notNull())
        .addColumn('start_time', 'bigint', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('home_team_id', 'bigint', (c) => c.notNull())
        .addColumn('away_team_id', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('events_start_idx').on('events').columns(['start_time', 'id']).execute();
      await db.schema.createIndex('events_league_idx').on('events').columns(['league_id', 'start_time']).execute();
      await db.schema
        .createTable('odds')
        .addColumn('id', id, (c) => c.primaryKey())
        .addColumn('event_id', 'bigint', (c) => c.notNull())
        .addColumn('operator_id', 'bigint', (c) => c.notNull())
        .addColumn('betting_market_id', 'bigint', (c) => c.notNull())
        .addColumn('position', 'text', (c) => c.notNull())
        .addColumn('line', 'double precision')
        .addColumn('price_decimal', 'double precision', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('odds_event_idx').on('odds').columns(['event_id', 'id']).execute();
      await db.schema
        .createTable('flows')
        .addColumn('id', id, (c) => c.primaryKey())
        .addColumn('flow_type', 'text', (c) => c.notNull())
        .addColumn('bet_type', 'text', (c) => c.notNull())
        .addColumn('event_id', 'bigint', (c) => c.notNull())
        .addColumn('sport_id', 'bigint', (c) => c.notNull())
        .addColumn('league_id', 'bigint', (c) => c.notNull())
        .addColumn('focus_entity_type', 'text', (c) => c.notNull())
        .addColumn('focus_entity_id', 'bigint')
        .addColumn('betting_market_id', 'bigint')
        .addColumn('line', 'double precision')
        .addColumn('split', 'text')
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('hits', 'integer', (c) => c.notNull())
        .addColumn('total', 'integer', (c) => c.notNull())
        .addColumn('hit_rate_pct', 'double precision', (c) => c.notNull())
        .addColumn('likelihood', 'text', (c) => c.notNull())
        .addColumn('price_decimal', 'double precision')
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('flows_event_idx').on('flows').columns(['event_id', 'id']).execute();
      await db.schema.createIndex('flows_type_idx').on('flows').columns(['flow_type', 'id']).execute();
      await db.schema.createIndex('flows_league_idx').on('flows').columns(['league_id', 'id']).execute();
      await db.schema
        .createTable('flow_legs')
        .addColumn('flow_id', 'bigint', (c) => c.notNull())
        .addColumn('leg_id', 'bigint', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('flow_legs_pk', ['flow_id', 'position'])
        .execute();
    },
  },
  '0003_change_times': {
    async up(db: Kysely<unknown>) {
      // When each version last moved, on the database's clock: every node can then tell how long
      // a change took to reach it (change_feed_lag_seconds), with no two machines' clocks compared.
      await db.schema.alterTable('change_versions').addColumn('changed_at', 'bigint').execute();
    },
  },
  '0010_usage': {
    async up(db: Kysely<unknown>) {
      // One column per ALTER: SQLite adds one at a time. NULL: the tier's default applies.
      await db.schema.alterTable('clients').addColumn('rate_limit_per_minute', 'integer').execute();
      await db.schema.alterTable('clients').addColumn('daily_quota', 'integer').execute();
      // No foreign key: usage is billing history and outlives the client it counts.
      await db.schema
        .createTable('usage_daily')
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('route_group', 'text', (c) => c.notNull())
        .addColumn('requests', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('usage_daily_pk', ['client_id', 'day', 'route_group'])
        .execute();
      // The operators' top list and the retention purge select by day across clients.
      await db.schema.createIndex('usage_daily_day_idx').on('usage_daily').columns(['day', 'client_id']).execute();
    },
  },
  '0011_credentials': credentialsMigration,
  '0012_catalogue': {
    async up(db: Kysely<unknown>) {
      const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
      // The rest of the reference lists (decision 0112): keyed records like the others.
      const keyedTable = (table: string) => createKeyedTable(db, table);
      for (const table of ['countries', 'betting_market_categories', 'betting_market_positions']) await keyedTable(table).execute();
      await keyedTable('event_periods').addColumn('sport_id', 'bigint', (c) => c.notNull()).execute();
      // Null for markets imported with a category text that names no category record.
      await db.schema.alterTable('betting_markets').addColumn('category_id', 'bigint').execute();
      // Derived at import like hit_rate_pct, so that the implied-probability filters compare with
      // exactly the value the item shows; the hit history is the flow's own JSON array (or null).
      await db.schema.alterTable('flows').addColumn('implied_probability', 'double precision').execute();
      await db.schema.alterTable('flows').addColumn('hit_history', 'text').execute();
      await db.schema.createIndex('flows_market_idx').on('flows').columns(['betting_market_id', 'id']).execute();
      // Flows stored before this migration get theirs: 1/d to 4 decimals, halves up, as
      // impliedProbabilityOf computes it (PostgreSQL rounds numeric, not double precision).
      const implied = sqlite ? sql`round(1.0 / price_decimal, 4)` : sql`round((1.0 / price_decimal)::numeric, 4)::double precision`;
      await sql`update flows set implied_probability = ${implied} where price_decimal > 1`.execute(db);
    },
  },
  // Price history, event scores and the closed set of event statuses (decisions 0120, 0122).
  '0013_price_history': {
    async up(db: Kysely<unknown>) {
      const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
      // Scores, and event statuses from free text to a closed set (docs/decisions/0122): known
      // spellings keep their meaning, anything else becomes `scheduled`, as a missing status does.
      await db.schema.alterTable('events').addColumn('home_score', 'integer').execute();
      await db.schema.alterTable('events').addColumn('away_score', 'integer').execute();
      const status = sql`lower(trim(status))`;
      await sql`
        update events set status = case
          when ${status} in ('scheduled', 'live', 'final', 'postponed', 'cancelled') then ${status}
          when ${status} in ('in_progress', 'in-progress', 'inprogress', 'in progress', 'in_play', 'in-play', 'inplay', 'started', 'halftime') then 'live'
          when ${status} in ('finished', 'complete', 'completed', 'closed', 'ended', 'full_time', 'fulltime', 'ft') then 'final'
          when ${status} in ('canceled', 'abandoned') then 'cancelled'
          when ${status} in ('delayed', 'suspended', 'interrupted') then 'postponed'
          else 'scheduled'
        end`.execute(db);

      // SQLite's AUTOINCREMENT never reuses an id, also after the newest rows are deleted:
      // a stream client's Last-Event-ID can never name another row than the one it received.
      await db.schema
        .createTable('odds_history')
        .addColumn('id', sqlite ? 'integer' : 'bigserial', (c) => (sqlite ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn('odds_id', 'bigint', (c) => c.notNull())
        .addColumn('event_id', 'bigint', (c) => c.notNull())
        .addColumn('operator_id', 'bigint', (c) => c.notNull())
        .addColumn('betting_market_id', 'bigint', (c) => c.notNull())
        .addColumn('position', 'text', (c) => c.notNull())
        .addColumn('changed_at', 'bigint', (c) => c.notNull())
        .addColumn('price_from', 'double precision')
        .addColumn('price_to', 'double precision', (c) => c.notNull())
        .addColumn('line_from', 'double precision')
        .addColumn('line_to', 'double precision')
        .addColumn('status_from', 'text')
        .addColumn('status_to', 'text', (c) => c.notNull())
        .execute();
      // An event's history in time order (the list, the files, the exports), and the purge by age.
      await db.schema.createIndex('odds_history_event_idx').on('odds_history').columns(['event_id', 'changed_at', 'id']).execute();
      await db.schema.createIndex('odds_history_changed_idx').on('odds_history').column('changed_at').execute();
      // Odds stored before history existed get their opening entry now, at their updated_at.
      await sql`
        insert into odds_history (odds_id, event_id, operator_id, betting_market_id, position, changed_at, price_to, line_to, status_to)
        select id, event_id, operator_id, betting_market_id, position, updated_at, price_decimal, line, status from odds order by id`.execute(db);
    },
  },
  // The flow tag taxonomy and subnational regions: reference records like the others. A tag type's
  // level and its known values are derived when the table is read, so only the parent is stored.
  '0014_tags_regions': {
    async up(db: Kysely<unknown>) {
      const keyedTable = (table: string) => createKeyedTable(db, table);
      await keyedTable('tag_dimensions').execute();
      await keyedTable('tag_types')
        .addColumn('dimension_id', 'bigint', (c) => c.notNull())
        .addColumn('parent_id', 'bigint')
        .addColumn('terminal', 'integer')
        .addColumn('is_value', 'integer', (c) => c.notNull())
        // The flow types the tag applies to, comma-separated (`fact,fun`); null: every type.
        .addColumn('flow_types', 'text')
        .execute();
      await keyedTable('subnational_regions')
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('country_id', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('flow_tags')
        .addColumn('flow_id', 'bigint', (c) => c.notNull())
        .addColumn('tag_type_id', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('flow_tags_pk', ['flow_id', 'tag_type_id'])
        .execute();
      // The tag_type_ids filter goes from tags to flows.
      await db.schema.createIndex('flow_tags_tag_idx').on('flow_tags').columns(['tag_type_id', 'flow_id']).execute();
    },
  },
  // Selections with their own id (docs/decisions/0204): assigned once, when first seen, and never recomputed.
  '0015_selections': {
    async up(db: Kysely<unknown>) {
      const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
      const id = sqlite ? 'integer' : 'bigint';
      // The key's parts are text with '' for "none": a unique index treats NULLs as distinct,
      // so a selection without a line would otherwise get a new id at every import.
      await db.schema
        .createTable('selections')
        .addColumn('id', id, (c) => c.primaryKey())
        .addColumn('event_id', 'bigint', (c) => c.notNull())
        .addColumn('betting_market_id', 'bigint', (c) => c.notNull())
        .addColumn('period', 'text', (c) => c.notNull())
        .addColumn('position', 'text', (c) => c.notNull())
        .addColumn('line', 'double precision')
        .addColumn('line_key', 'text', (c) => c.notNull())
        .addColumn('player', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('selections_key_idx')
        .on('selections')
        .columns(['event_id', 'betting_market_id', 'period', 'position', 'line_key', 'player'])
        .unique()
        .execute();
      await db.schema.alterTable('odds').addColumn('selection_id', 'bigint').execute();
      await db.schema.alterTable('flows').addColumn('selection_id', 'bigint').execute();
      await db.schema.createIndex('flows_selection_idx').on('flows').columns(['selection_id', 'id']).execute();
      // Odds stored before this migration are "first seen" now, in id order; flows get theirs at their next import.
      await backfillSelections(db as Kysely<Schema>);
    },
  },
  '0016_check_endpoints': {
    async up(db: Kysely<unknown>) {
      // One per client. The token is stored encrypted (AES-256-GCM: iv, tag and ciphertext in one
      // base64url text) beside its masked preview, so that reading the configuration never decrypts it.
      await db.schema
        .createTable('check_endpoints')
        .addColumn('client_id', 'text', (c) => c.primaryKey().references('clients.id'))
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('auth_token_sealed', 'text', (c) => c.notNull())
        .addColumn('auth_token_preview', 'text', (c) => c.notNull())
        .addColumn('auth_header_name', 'text', (c) => c.notNull())
        .addColumn('auth_scheme', 'text', (c) => c.notNull())
        .addColumn('allow_multiple', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
  // Odditt's clients ask for the leagues worth featuring first; an import that does not say is "not popular".
  '0017_league_popular': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('leagues').addColumn('is_popular', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    },
  },
  // Odditt's sub-type of a fact flow: `base` (a plain trend), `expanded` (with a condition), `multi`
  // (several trends in one). Every flow stored before this is a base flow; other types stay base.
  '0018_fact_flow_type': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('flows').addColumn('fact_flow_type', 'text', (c) => c.notNull().defaultTo('base')).execute();
    },
  },
  // What an odds row prices beyond its market and position (docs/decisions/0216): the player of a
  // prop, the period (null: the full game), main line or alternate, priced live or before the start.
  '0019_odds_details': {
    async up(db: Kysely<unknown>) {
      // One column per ALTER: SQLite adds one at a time. Rows stored before are full-game, main-line, pre-match prices.
      await db.schema.alterTable('odds').addColumn('player_id', 'bigint').execute();
      await db.schema.alterTable('odds').addColumn('event_period_id', 'bigint').execute();
      await db.schema.alterTable('odds').addColumn('is_main', 'integer', (c) => c.notNull().defaultTo(1)).execute();
      await db.schema.alterTable('odds').addColumn('is_live', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    },
  },
  // Operators' deep-link templates (web, iOS, Android) and each odds row's own selection id at its
  // operator, which the templates name: absent, an operator has no links, as before.
  '0020_operator_deep_links': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('operators').addColumn('bet_web_deep_link_template', 'text').execute();
      await db.schema.alterTable('operators').addColumn('bet_ios_deep_link_template', 'text').execute();
      await db.schema.alterTable('operators').addColumn('bet_android_deep_link_template', 'text').execute();
      await db.schema.alterTable('odds').addColumn('operator_selection_id', 'text').execute();
    },
  },
  '0021_results': {
    async up(db: Kysely<unknown>) {
      const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
      // The statistics players are graded on: a closed vocabulary per sport, keyed like the periods.
      await createKeyedTable(db, 'player_statistics').addColumn('sport_id', 'bigint', (c) => c.notNull()).execute();
      await db.schema
        .createTable('event_period_scores')
        .addColumn('event_id', 'bigint', (c) => c.notNull())
        .addColumn('event_period_id', 'bigint', (c) => c.notNull())
        .addColumn('home_score', 'integer', (c) => c.notNull())
        .addColumn('away_score', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('event_period_scores_pk', ['event_id', 'event_period_id'])
        .execute();
      await db.schema
        .createTable('player_event_statistics')
        .addColumn('event_id', 'bigint', (c) => c.notNull())
        .addColumn('player_id', 'bigint', (c) => c.notNull())
        .addColumn('statistic', 'text', (c) => c.notNull())
        .addColumn('value', 'double precision', (c) => c.notNull())
        .addPrimaryKeyConstraint('player_event_statistics_pk', ['event_id', 'player_id', 'statistic'])
        .execute();
      // A market's settlement: null rule = ungraded. The period is a key, as a market may serve every sport.
      await db.schema.alterTable('betting_markets').addColumn('settlement_rule', 'text').execute();
      await db.schema.alterTable('betting_markets').addColumn('settlement_stat', 'text').execute();
      await db.schema.alterTable('betting_markets').addColumn('settlement_period', 'text').execute();
      // Every grading of an odds row, kept: a correction supersedes the current one and both stay.
      await db.schema
        .createTable('odds_grades')
        .addColumn('id', sqlite ? 'integer' : 'bigserial', (c) => (sqlite ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn('odds_id', 'bigint', (c) => c.notNull())
        .addColumn('event_id', 'bigint', (c) => c.notNull())
        .addColumn('graded_at', 'bigint', (c) => c.notNull())
        .addColumn('outcome', 'text')
        .addColumn('reason', 'text')
        .addColumn('rule', 'text')
        .addColumn('used', 'text')
        .addColumn('closing_price', 'double precision')
        .addColumn('closing_line', 'double precision')
        .addColumn('superseded_at', 'bigint')
        .execute();
      await db.schema.createIndex('odds_grades_odds_idx').on('odds_grades').columns(['odds_id', 'id']).execute();
      await db.schema.createIndex('odds_grades_event_idx').on('odds_grades').columns(['event_id', 'odds_id']).execute();
    },
  },
  // Where a flow's hits and total come from: the import, or the graded results (a computed flow).
  '0022_flow_sources': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('flows').addColumn('source', 'text', (c) => c.notNull().defaultTo('imported')).execute();
      await db.schema.alterTable('flows').addColumn('disagrees', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    },
  },
  '0023_audit_log': {
    async up(db: Kysely<unknown>) {
      const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
      // An increasing id orders entries written in the same millisecond, and is never reused.
      // No foreign key: the record of a change outlives the client it names, like its usage.
      await db.schema
        .createTable('audit_log')
        .addColumn('id', sqlite ? 'integer' : 'bigserial', (c) => (sqlite ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('actor_type', 'text', (c) => c.notNull())
        .addColumn('actor_via', 'text', (c) => c.notNull())
        .addColumn('actor_client_id', 'text')
        .addColumn('actor_credential_code', 'text')
        .addColumn('actor_token_id', 'text')
        .addColumn('source_address', 'text')
        .addColumn('before', 'text')
        .addColumn('after', 'text')
        .execute();
      // A client's own log, newest first; the operators' filter by client; the purge by age.
      await db.schema.createIndex('audit_log_client_idx').on('audit_log').columns(['client_id', 'id']).execute();
      await db.schema.createIndex('audit_log_at_idx').on('audit_log').column('at').execute();
    },
  },
  // What the portal's hourly charts and its list of refusals read: finer than usage_daily, so kept
  // shorter (USAGE_HOURLY_RETENTION_DAYS). Refusals are counted per client, UTC minute and window,
  // so a client hammering past its limit adds one row a minute, not one per refused request.
  '0024_usage_hourly': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('usage_hourly')
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('hour', 'bigint', (c) => c.notNull())
        .addColumn('route_group', 'text', (c) => c.notNull())
        .addColumn('requests', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('usage_hourly_pk', ['client_id', 'hour', 'route_group'])
        .execute();
      await db.schema.createIndex('usage_hourly_hour_idx').on('usage_hourly').column('hour').execute();
      await db.schema
        .createTable('usage_refusals')
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('minute', 'bigint', (c) => c.notNull())
        .addColumn('window', 'text', (c) => c.notNull())
        .addColumn('refusals', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('usage_refusals_pk', ['client_id', 'minute', 'window'])
        .execute();
      await db.schema.createIndex('usage_refusals_minute_idx').on('usage_refusals').column('minute').execute();
    },
  },
  // The names an account's flow answers give flow_type in (decision 0263): every account made before
  // answers in ours, as it always did.
  '0025_flow_vocabulary': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('clients').addColumn('flow_vocabulary', 'text', (c) => c.notNull().defaultTo('ours')).execute();
    },
  },
  // A selection whose position is a side alone (`over`) is keyed by its player too (docs/decisions/0277).
  '0026_selection_players': {
    async up(db: Kysely<unknown>) {
      await splitSelectionsByPlayer(db as Kysely<Schema>);
    },
  },
  // The events an import made due for grading, until they are graded: a node killed between an
  // import's commit and its grading leaves them, and the next start grades them (decision 0280).
  '0027_grading_due': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('grading_due')
        .addColumn('event_id', 'bigint', (c) => c.primaryKey())
        .addColumn('due_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
  // Work computed once from the price history after the imports, by whichever node gets to it: a
  // named cursor per processor, moved in the transaction that stores its work (decision 0293).
  '0028_history_processors': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('feed_cursors')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('last_id', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('board_changes')
        .addColumn('history_id', 'bigint', (c) => c.primaryKey())
        .addColumn('changes', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('board_changes_created_idx').on('board_changes').column('created_at').execute();
      await sql`insert into change_versions (name, version) values ('board', 0)`.execute(db);
    },
  },
  // Where each imported record came from (decision 0295): its source's own key per record, the
  // names operators bound to records (aliases), and the rows waiting for a name no rule matched
  // (the review queue, decision 0296).
  '0029_source_identity': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('external_ids')
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('entity_type', 'text', (c) => c.notNull())
        .addColumn('external_id', 'text', (c) => c.notNull())
        .addColumn('entity_id', 'bigint', (c) => c.notNull())
        .addColumn('created', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('external_ids_pk', ['source', 'entity_type', 'external_id'])
        .execute();
      await db.schema.createIndex('external_ids_entity_idx').on('external_ids').columns(['entity_type', 'entity_id']).execute();
      await db.schema
        .createTable('aliases')
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('entity_type', 'text', (c) => c.notNull())
        .addColumn('name_key', 'text', (c) => c.notNull())
        .addColumn('scope_id', 'bigint', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('entity_id', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('aliases_pk', ['source', 'entity_type', 'name_key', 'scope_id'])
        .execute();
      await db.schema
        .createTable('source_queue')
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('event_key', 'text', (c) => c.notNull())
        .addColumn('row', 'text', (c) => c.notNull())
        .addColumn('unmatched', 'text', (c) => c.notNull())
        .addColumn('queued_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('source_queue_pk', ['source', 'event_key'])
        .execute();
    },
  },
  // The history's retention counts from when a change was recorded, not from the price's own time,
  // so that a past season loaded today is kept (decision 0299). The rows already there were kept by
  // their changed_at until now: it stays their count's start, and the purge's index moves over.
  // Nullable only because SQLite adds no NOT NULL column without a default (a default would hide a
  // writer that forgets it); every writer fills it.
  '0030_history_recorded_at': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('odds_history').addColumn('recorded_at', 'bigint').execute();
      await sql`update odds_history set recorded_at = changed_at`.execute(db);
      await db.schema.dropIndex('odds_history_changed_idx').execute();
      await db.schema.createIndex('odds_history_recorded_idx').on('odds_history').columns(['recorded_at', 'id']).execute();
    },
  },
  // Work one node of several does at a time, such as polling an upstream feed: a named lease,
  // taken when free or expired and renewed by its holder (decision 0301).
  '0031_upstream_lease': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('leases')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('holder', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
  // Webhooks (decision 0305): a client's endpoints, the deliveries formed for each (its sequence,
  // its webhook-id, the payload signed at each attempt), every attempt made, and the outbox the
  // rare event kinds (event updates, grades) are recorded in by the transaction that makes them.
  // Price changes and board changes need no outbox: the former reads them after cursors of its own
  // over the price history and the board changes, which are already durable.
  '0032_webhooks': {
    async up(db: Kysely<unknown>) {
      const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
      await db.schema
        .createTable('webhook_endpoints')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('event_types', 'text', (c) => c.notNull())
        .addColumn('filters', 'text', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull())
        .addColumn('disabled_reason', 'text')
        .addColumn('disabled_at', 'bigint')
        .addColumn('secret_sealed', 'text', (c) => c.notNull())
        .addColumn('previous_secret_sealed', 'text')
        .addColumn('previous_secret_expires_at', 'bigint')
        .addColumn('last_sequence', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('deleted_at', 'bigint')
        .execute();
      await db.schema.createIndex('webhook_endpoints_client_idx').on('webhook_endpoints').columns(['client_id', 'created_at']).execute();
      await db.schema
        .createTable('webhook_deliveries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('endpoint_id', 'text', (c) => c.notNull())
        .addColumn('sequence', 'bigint')
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('next_attempt_at', 'bigint')
        .addColumn('lease_holder', 'text')
        .addColumn('lease_expires_at', 'bigint')
        .addColumn('changed_at', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('delivered_at', 'bigint')
        .execute();
      // One sequence number once per endpoint; the head of each endpoint's queue (its lowest pending
      // sequence, found without walking the delivered ones kept before it); the due; a page by age.
      await db.schema.createIndex('webhook_deliveries_sequence_idx').unique().on('webhook_deliveries').columns(['endpoint_id', 'sequence']).execute();
      await db.schema.createIndex('webhook_deliveries_head_idx').on('webhook_deliveries').columns(['endpoint_id', 'state', 'sequence']).execute();
      await db.schema.createIndex('webhook_deliveries_due_idx').on('webhook_deliveries').columns(['state', 'next_attempt_at']).execute();
      await db.schema.createIndex('webhook_deliveries_created_idx').on('webhook_deliveries').columns(['created_at']).execute();
      await db.schema
        .createTable('webhook_attempts')
        .addColumn('id', sqlite ? 'integer' : 'bigserial', (c) => (sqlite ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn('delivery_id', 'text', (c) => c.notNull())
        .addColumn('attempted_at', 'bigint', (c) => c.notNull())
        .addColumn('status_code', 'integer')
        .addColumn('latency_ms', 'integer', (c) => c.notNull())
        .addColumn('response_excerpt', 'text', (c) => c.notNull())
        .addColumn('error', 'text')
        .execute();
      await db.schema.createIndex('webhook_attempts_delivery_idx').on('webhook_attempts').columns(['delivery_id', 'id']).execute();
      await db.schema
        .createTable('webhook_outbox')
        .addColumn('id', sqlite ? 'integer' : 'bigserial', (c) => (sqlite ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('sport_id', 'bigint')
        .addColumn('league_id', 'bigint')
        .addColumn('event_id', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
  // The webhooks' former (decision 0308): its cursors made now, before any endpoint exists, so no
  // change made after an endpoint is created can fall before a cursor made later; the counter that
  // wakes every node's dispatcher when deliveries are formed.
  '0033_webhook_former': {
    async up(db: Kysely<unknown>) {
      await sql`insert into change_versions (name, version) values ('webhooks', 0)`.execute(db);
      await sql`insert into feed_cursors (name, last_id) select 'webhooks: odds', coalesce(max(id), 0) from odds_history`.execute(db);
      await sql`insert into feed_cursors (name, last_id) select 'webhooks: board', coalesce(max(history_id), 0) from board_changes`.execute(db);
    },
  },
  // The deliveries per client and day the usage answers show beside the requests (decision 0311).
  '0034_webhook_dispatch': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('usage_webhook_deliveries')
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('deliveries', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('usage_webhook_deliveries_pk', ['client_id', 'day'])
        .execute();
      await db.schema.createIndex('usage_webhook_deliveries_day_idx').on('usage_webhook_deliveries').column('day').execute();
    },
  },
  // edge.found (decision 0316): the last edge known of each selection and arbitrage of the markets
  // the former has looked at, so that an edge is told when it appears, not while it stays.
  '0035_webhook_edges': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('webhook_edges')
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('event_id', 'bigint', (c) => c.notNull())
        .addColumn('betting_market_id', 'bigint', (c) => c.notNull())
        .addColumn('edge', 'double precision', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('webhook_edges_pk', ['kind', 'key'])
        .execute();
      await db.schema.createIndex('webhook_edges_market_idx').on('webhook_edges').columns(['event_id', 'betting_market_id']).execute();
    },
  },
  // As of an instant (decision 0317): an event's end is recorded when it first becomes final, so
  // that "finished" has an instant; events already final have none (null). A price as of an instant
  // is the latest change of its row at or before it: one index step per odds row, not a replay. The
  // oldest change kept (the lower bound of as_of) is the first entry of an index on changed_at.
  '0036_as_of': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('events').addColumn('ended_at', 'bigint').execute();
      await db.schema.createIndex('odds_history_odds_idx').on('odds_history').columns(['odds_id', 'changed_at', 'id']).execute();
      await db.schema.createIndex('odds_history_changed_idx').on('odds_history').column('changed_at').execute();
    },
  },
  // Steam moves and drops (decision 0319), found by a history processor as the imports land: its
  // cursor starts at the newest change (no move is looked for in the history already kept), the
  // webhooks' cursor over the moves at the first, and the counter that wakes the streams and the former.
  '0037_odds_moves': {
    async up(db: Kysely<unknown>) {
      const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
      await db.schema
        .createTable('odds_moves')
        .addColumn('id', sqlite ? 'integer' : 'bigserial', (c) => (sqlite ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('history_id', 'bigint', (c) => c.notNull())
        .addColumn('event_id', 'bigint', (c) => c.notNull())
        .addColumn('league_id', 'bigint')
        .addColumn('betting_market_id', 'bigint', (c) => c.notNull())
        .addColumn('event_period_id', 'bigint')
        .addColumn('player_id', 'bigint')
        .addColumn('position', 'text', (c) => c.notNull())
        .addColumn('is_main', 'integer', (c) => c.notNull())
        .addColumn('line', 'double precision')
        .addColumn('selection_key', 'text', (c) => c.notNull())
        .addColumn('operator_id', 'bigint')
        .addColumn('operator_ids', 'text', (c) => c.notNull())
        .addColumn('odds_id', 'bigint', (c) => c.notNull())
        .addColumn('from_price', 'double precision', (c) => c.notNull())
        .addColumn('to_price', 'double precision', (c) => c.notNull())
        .addColumn('size', 'double precision', (c) => c.notNull())
        .addColumn('book_count', 'integer', (c) => c.notNull())
        .addColumn('books', 'text', (c) => c.notNull())
        .addColumn('window_seconds', 'integer', (c) => c.notNull())
        .addColumn('started_at', 'bigint', (c) => c.notNull())
        .addColumn('changed_at', 'bigint', (c) => c.notNull())
        .addColumn('detected_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('odds_moves_changed_idx').on('odds_moves').columns(['changed_at', 'id']).execute();
      await db.schema.createIndex('odds_moves_event_idx').on('odds_moves').columns(['event_id', 'changed_at']).execute();
      // The detection reads the window's changes of the touched selections' rows, and only theirs,
      // by odds_history_odds_idx (odds_id, changed_at, id), which 0036 made for the as-of reading.
      await sql`insert into change_versions (name, version) values ('moves', 0)`.execute(db);
      await sql`insert into feed_cursors (name, last_id) select 'odds moves', coalesce(max(id), 0) from odds_history`.execute(db);
      await sql`insert into feed_cursors (name, last_id) values ('webhooks: moves', 0)`.execute(db);
    },
  },
  // Signals (decision 0321): every value bet, arbitrage, middle, steam move and drop the detector
  // saw, once per appearance, with its grade and closing-line value; the detector's and the
  // grader's cursors made now, so that on a new database they start at its first change.
  '0038_signals': {
    async up(db: Kysely<unknown>) {
      const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
      await db.schema
        .createTable('signals')
        .addColumn('id', sqlite ? 'integer' : 'bigserial', (c) => (sqlite ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('event_id', 'bigint', (c) => c.notNull())
        .addColumn('betting_market_id', 'bigint', (c) => c.notNull())
        .addColumn('selection_id', 'bigint')
        .addColumn('operator_id', 'bigint')
        .addColumn('position', 'text')
        .addColumn('line', 'double precision')
        .addColumn('price', 'double precision')
        .addColumn('fair_probability', 'double precision')
        .addColumn('edge', 'double precision')
        .addColumn('move_size', 'double precision')
        .addColumn('legs', 'text', (c) => c.notNull())
        .addColumn('detected_at', 'bigint', (c) => c.notNull())
        .addColumn('ended_at', 'bigint')
        .addColumn('outcome', 'text')
        .addColumn('profit', 'double precision')
        .addColumn('closing_price', 'double precision')
        .addColumn('clv_pct', 'double precision')
        .addColumn('graded_at', 'bigint')
        .execute();
      // The appearances still open of a market; a list by time; the signals of an event to grade.
      await db.schema.createIndex('signals_open_idx').on('signals').columns(['event_id', 'betting_market_id', 'ended_at']).execute();
      await db.schema.createIndex('signals_detected_idx').on('signals').columns(['detected_at', 'id']).execute();
      // A move's appearance is found by its key, newest first: one index step, not a scan of the record.
      await db.schema.createIndex('signals_key_idx').on('signals').columns(['key', 'detected_at']).execute();
      await sql`insert into feed_cursors (name, last_id) select 'signals: detector', coalesce(max(id), 0) from odds_history`.execute(db);
      await sql`insert into feed_cursors (name, last_id) select 'signals: grades', coalesce(max(id), 0) from odds_grades`.execute(db);
      await sql`insert into feed_cursors (name, last_id) select 'signals: moves', coalesce(max(id), 0) from odds_moves`.execute(db);
    },
  },
  // Deliveries of the same changes to several endpoints share their members, stored once (decision
  // 0322): a delivery row stays small, so its lease and its settling rewrite a few bytes, not the batch.
  '0039_webhook_payloads': {
    async up(db: Kysely<unknown>) {
      const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
      await db.schema
        .createTable('webhook_payloads')
        .addColumn('id', sqlite ? 'integer' : 'bigserial', (c) => (sqlite ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn('members', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.alterTable('webhook_deliveries').addColumn('payload_id', 'bigint').execute();
      await db.schema.createIndex('webhook_deliveries_payload_idx').on('webhook_deliveries').column('payload_id').execute();
      await db.schema.createIndex('webhook_payloads_created_idx').on('webhook_payloads').column('created_at').execute();
    },
  },
  // Competitions (decision 0325): an event is a matchup (home and away, every row stored before) or a
  // competition of N participants, each a team or a player, with its finishing result once known. An
  // odds row of a many-outcome market names the participant it backs (and, for a matchup between
  // participants, its rivals) and may carry a book's each-way terms; its selection is keyed by them too.
  '0040_competitions': {
    async up(db: Kysely<unknown>) {
      const id = db.getExecutor().adapter instanceof SqliteAdapter ? 'integer' : 'bigint';
      // Every stored event is a matchup; a competition keeps 0 in both team columns (no team has id 0),
      // and its own facts under the same id in competitions.
      await db.schema.alterTable('events').addColumn('kind', 'text', (c) => c.notNull().defaultTo('matchup')).execute();
      await db.schema
        .createTable('competitions')
        .addColumn('id', id, (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('participant_type', 'text', (c) => c.notNull())
        .addColumn('end_time', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('competition_participants')
        .addColumn('id', id, (c) => c.primaryKey())
        .addColumn('event_id', 'bigint', (c) => c.notNull())
        .addColumn('team_id', 'bigint')
        .addColumn('player_id', 'bigint')
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('finish_position', 'integer')
        .addColumn('finish_status', 'text')
        .execute();
      await db.schema.createIndex('competition_participants_event_idx').on('competition_participants').columns(['event_id', 'id']).execute();
      // What a competition's odds row says beyond a matchup's, beside it: the matchup rows have nothing
      // there. Its selection's key names the participant in the key's subject part (selections.player,
      // `p12`, `p12>34,56` for a matchup between participants), so no stored selection changes.
      await db.schema
        .createTable('odds_outrights')
        .addColumn('odds_id', 'bigint', (c) => c.primaryKey())
        .addColumn('event_id', 'bigint', (c) => c.notNull())
        .addColumn('participant_id', 'bigint', (c) => c.notNull())
        .addColumn('rival_ids', 'text')
        .addColumn('each_way_fraction', 'double precision')
        .addColumn('each_way_places', 'integer')
        .execute();
      await db.schema.createIndex('odds_outrights_event_idx').on('odds_outrights').columns(['event_id', 'participant_id']).execute();
    },
  },
};

/** A reference table of keyed records `{id, key, name}`, to which a migration adds its own columns. */
function createKeyedTable(db: Kysely<unknown>, table: string) {
  const id = db.getExecutor().adapter instanceof SqliteAdapter ? 'integer' : 'bigint';
  return db.schema
    .createTable(table)
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull());
}

async function backfillSelections(db: Kysely<Schema>): Promise<void> {
  const tuples = await db
    .selectFrom('odds')
    .select(['event_id', 'betting_market_id', 'position', 'line', (eb) => eb.fn.min('id').as('first_id')])
    .groupBy(['event_id', 'betting_market_id', 'position', 'line'])
    .orderBy('first_id')
    .execute();
  const rows = tuples.map((t, index) => ({
    id: index + 1,
    event_id: Number(t.event_id),
    betting_market_id: Number(t.betting_market_id),
    period: '',
    position: t.position,
    line: t.line === null ? null : Number(t.line),
    line_key: lineKeyOf(t.line),
    player: '',
  }));
  for (let start = 0; start < rows.length; start += 1_000) await db.insertInto('selections').values(rows.slice(start, start + 1_000)).execute();
  await sql`
    update odds set selection_id = (
      select s.id from selections s
      where s.event_id = odds.event_id and s.betting_market_id = odds.betting_market_id and s.position = odds.position
        and s.period = '' and s.player = '' and (s.line = odds.line or (s.line is null and odds.line is null)))`.execute(db);
}

/**
 * The side words a position may be alone, as src/shared/positions.ts reads them when this
 * migration was written: a migration keeps what it did, whatever the code reads later.
 */
const SIDE_WORDS = ['home', 'away', 'draw', 'over', 'under', 'yes', 'no'];

/**
 * Before 0026 two players' `over` at one line shared one selection. Each such stored selection
 * goes to the player of its first odds row (the lowest id: the one it was first seen for), so an
 * id a client kept names what it named first; the rows of every other player (or without one,
 * after a first with one) get a selection of their own, at the next ids.
 */
async function splitSelectionsByPlayer(db: Kysely<Schema>): Promise<void> {
  const rows = await db
    .selectFrom('odds as o')
    .innerJoin('selections as s', 's.id', 'o.selection_id')
    .select(['o.id', 'o.player_id', 's.id as selection_id', 's.event_id', 's.betting_market_id', 's.period', 's.position', 's.line', 's.line_key'])
    .where('s.player', '=', '')
    .where(sql<string>`lower(trim(s.position))`, 'in', SIDE_WORDS)
    .orderBy('o.id')
    .execute();
  const bySelection = new Map<number, typeof rows>();
  for (const row of rows) {
    const list = bySelection.get(Number(row.selection_id));
    if (list === undefined) bySelection.set(Number(row.selection_id), [row]);
    else list.push(row);
  }
  const playerOf = (row: (typeof rows)[number]) => (row.player_id === null ? '' : String(Number(row.player_id)));
  const max = await db.selectFrom('selections').select((eb) => eb.fn.max('id').as('max')).executeTakeFirst();
  let next = Number(max?.max ?? 0) + 1;
  for (const [id, list] of bySelection) {
    const [first, ...others] = [...new Set(list.map(playerOf))];
    const [head] = list;
    if (head === undefined) continue;
    const { event_id, betting_market_id, period, position, line, line_key } = head;
    if (first !== undefined && first !== '') await db.updateTable('selections').set({ player: first }).where('id', '=', id).execute();
    for (const player of others) {
      const selectionId = next++;
      await db
        .insertInto('selections')
        .values({ id: selectionId, event_id: Number(event_id), betting_market_id: Number(betting_market_id), period, position, line: line === null ? null : Number(line), line_key, player })
        .execute();
      const oddsIds = list.filter((row) => playerOf(row) === player).map((row) => Number(row.id));
      for (let start = 0; start < oddsIds.length; start += 1_000) {
        await db.updateTable('odds').set({ selection_id: selectionId }).where('id', 'in', oddsIds.slice(start, start + 1_000)).execute();
      }
    }
  }
}

/** A line as a selection key holds it: '' for none, else the number as JavaScript prints it. */
export function lineKeyOf(line: number | string | null | undefined): string {
  return line === null || line === undefined ? '' : String(Number(line));
}

const provider: MigrationProvider = { getMigrations: async () => ({ ...MIGRATIONS }) };

/** The schema this code migrates to: its newest migration's name. */
export const SCHEMA_VERSION = Object.keys(MIGRATIONS).at(-1) ?? '';

/** Brings the schema up to `name` (tests of a migration: the data it finds, then what it makes of it). */
export async function migrateTo(db: Kysely<Schema>, name: string): Promise<void> {
  await migrate(db, (migrator) => migrator.migrateTo(name));
}

/** Brings the schema up to date; safe to run on every start, also from several processes at once. */
export function migrateToLatest(db: Kysely<Schema>): Promise<string[]> {
  return migrate(db, (migrator) => migrator.migrateToLatest());
}

async function migrate(db: Kysely<Schema>, step: (migrator: Migrator) => Promise<MigrationResultSet>): Promise<string[]> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return applied(await step(new Migrator({ db, provider })));
  // Kysely locks nothing across processes on SQLite: two starting at once would both find the
  // schema empty and the second fail on "table already exists". BEGIN IMMEDIATE takes the write
  // lock before the state is read, so the second waits (busy_timeout), then finds nothing to do.
  // Foreign keys are off around it, as SQLite documents for rebuilding a table (0011): the pragma
  // is ignored inside a transaction, and a migration that rebuilds one checks the keys itself.
  return db.connection().execute(async (connection) => {
    await sql`pragma foreign_keys = off`.execute(connection);
    try {
      await sql`begin immediate`.execute(connection);
      try {
        const names = applied(await step(new Migrator({ db: connection, provider, disableTransactions: true })));
        await sql`commit`.execute(connection);
        return names;
      } catch (error) {
        await sql`rollback`.execute(connection).catch(() => {});
        throw error;
      }
    } finally {
      await sql`pragma foreign_keys = on`.execute(connection);
    }
  });
}

function applied({ error, results }: MigrationResultSet): string[] {
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
