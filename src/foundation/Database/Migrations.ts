// The schema, as an ordered record of migrations run by PgMigrator at start-up. Several instances
// may start at once: an advisory lock taken in one transaction around the whole run serialises them
// (PgMigrator's own table lock does not cover creating its table, where two first starts collide).

import * as NodeContext from "@effect/platform-node/NodeContext"
import * as Migrator from "@effect/sql/Migrator"
import * as SqlClient from "@effect/sql/SqlClient"
import * as PgMigrator from "@effect/sql-pg/PgMigrator"
import * as Effect from "effect/Effect"

const initialSchema = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE users (
      id text PRIMARY KEY,
      email text NOT NULL,
      name text NOT NULL,
      email_verified boolean NOT NULL DEFAULT false,
      preferred_name text,
      theme text NOT NULL DEFAULT 'system' CHECK (theme IN ('system', 'light', 'dark')),
      onboarding_completed boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`
  // Emails are unique whatever their case.
  yield* sql`CREATE UNIQUE INDEX users_email_key ON users (lower(email))`
  yield* sql`
    CREATE TABLE password_credentials (
      user_id text PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
      password_hash text NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`
    CREATE TABLE organizations (
      id text PRIMARY KEY,
      name text NOT NULL,
      slug text NOT NULL,
      company_name text,
      website text,
      phone text,
      address text,
      version bigint NOT NULL DEFAULT 1,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE UNIQUE INDEX organizations_slug_key ON organizations (slug)`
  yield* sql`
    CREATE TABLE members (
      id text PRIMARY KEY,
      organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      role text NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
      created_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT members_one_per_user UNIQUE (organization_id, user_id)
    )`
  yield* sql`CREATE INDEX members_user_idx ON members (user_id)`
  yield* sql`CREATE INDEX members_page_idx ON members (organization_id, created_at, id)`
  yield* sql`
    CREATE TABLE invitations (
      id text PRIMARY KEY,
      organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      email text NOT NULL,
      role text NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
      status text NOT NULL DEFAULT 'pending'
        CHECK (status IN ('pending', 'accepted', 'rejected', 'revoked', 'expired')),
      invited_by text REFERENCES users (id) ON DELETE SET NULL,
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`
  // At most one pending invitation per email and organization (extensions §4).
  yield* sql`
    CREATE UNIQUE INDEX invitations_one_pending ON invitations (organization_id, lower(email))
    WHERE status = 'pending'`
  yield* sql`CREATE INDEX invitations_page_idx ON invitations (organization_id, created_at, id)`
  yield* sql`CREATE INDEX invitations_email_idx ON invitations (lower(email))`
  yield* sql`
    CREATE TABLE sessions (
      id text PRIMARY KEY,
      token_hash text NOT NULL,
      user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      active_organization_id text REFERENCES organizations (id) ON DELETE SET NULL,
      user_agent text,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_seen_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      revoked_at timestamptz
    )`
  yield* sql`CREATE UNIQUE INDEX sessions_token_hash_key ON sessions (token_hash)`
  yield* sql`CREATE INDEX sessions_user_idx ON sessions (user_id, created_at, id)`
  yield* sql`
    CREATE TABLE api_tokens (
      id text PRIMARY KEY,
      organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      name text NOT NULL,
      scopes text[] NOT NULL,
      prefix text NOT NULL,
      token_hash text NOT NULL,
      created_by text REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      last_used_at timestamptz,
      revoked_at timestamptz
    )`
  yield* sql`CREATE UNIQUE INDEX api_tokens_token_hash_key ON api_tokens (token_hash)`
  yield* sql`CREATE INDEX api_tokens_page_idx ON api_tokens (organization_id, created_at, id)`
  yield* sql`
    CREATE TABLE email_verifications (
      id text PRIMARY KEY,
      user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      email text NOT NULL,
      purpose text NOT NULL CHECK (purpose IN ('verify-email', 'change-email')),
      token_hash text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      used_at timestamptz
    )`
  yield* sql`CREATE UNIQUE INDEX email_verifications_token_hash_key ON email_verifications (token_hash)`
  yield* sql`CREATE INDEX email_verifications_user_idx ON email_verifications (user_id)`
  // The link (which holds a one-time email token) is erased once the message is delivered.
  yield* sql`
    CREATE TABLE outbox (
      id bigserial PRIMARY KEY,
      kind text NOT NULL,
      recipient text NOT NULL,
      link text,
      created_at timestamptz NOT NULL DEFAULT now(),
      available_at timestamptz NOT NULL DEFAULT now(),
      attempts integer NOT NULL DEFAULT 0,
      delivered_at timestamptz,
      last_error text
    )`
  yield* sql`CREATE INDEX outbox_pending_idx ON outbox (available_at, id) WHERE delivered_at IS NULL`
  yield* sql`
    CREATE TABLE rate_limit_counters (
      key text PRIMARY KEY,
      window_start timestamptz NOT NULL,
      count integer NOT NULL
    )`
  yield* sql`CREATE INDEX rate_limit_counters_window_idx ON rate_limit_counters (window_start)`
})

/**
 * Rows of paged lists (members, invitations, tokens) keep their creation time at millisecond
 * precision: the cursor's position then round-trips exactly through a JavaScript Date, and the
 * lists can order by the plain columns their `(organization_id, created_at, id)` indexes cover
 * (ordering by `date_trunc(…)` would sort every row of the organization for each page).
 */
const pagePositionsInMilliseconds = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  for (const table of ["members", "invitations", "api_tokens"]) {
    yield* sql`UPDATE ${sql(table)} SET created_at = date_trunc('milliseconds', created_at)`
    yield* sql`ALTER TABLE ${sql(table)} ALTER COLUMN created_at SET DEFAULT date_trunc('milliseconds', now())`
  }
})

/**
 * The outbox delivers outside the transaction that claims a message: a worker leases a batch in one
 * short statement (`claimed_until`), sends, then marks each message in another. A lease that runs
 * out (the worker crashed or hung) makes the message claimable again. The pending index covers the
 * claim's order; the lease is checked on the few rows it returns.
 */
const outboxDeliveryLeases = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE outbox ADD COLUMN claimed_until timestamptz`
})

/**
 * Keys the service signs with when the operator sets none (list cursors, issue 14): created once
 * per database by the first instance that needs one, so every instance on the database signs and
 * checks with the same key.
 */
const signingKeys = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE signing_keys (
      name text PRIMARY KEY,
      key text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`
})

/**
 * An API token acts for its creator (extensions §5): removing a member revokes the tokens they
 * created in that organization, found by this index.
 */
const apiTokensByCreator = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE INDEX api_tokens_creator_idx ON api_tokens (organization_id, created_by) WHERE revoked_at IS NULL`
})

/**
 * Delegated access (extensions §8): OAuth clients, grants (the connections people see), and the
 * codes, access tokens and refresh tokens issued for them. Every secret (client secret, code, token)
 * is stored only as its hex SHA-256, as sessions and API tokens are. Grants are revoked rather than
 * deleted at once, so that a code or refresh token presented again can still be traced to the grant
 * it must revoke.
 */
const oauth = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // A client registered here (RFC 7591, id `cli_…`) or a Client ID Metadata Document (id = its URL,
  // the fetched document kept so every instance shares it and connections can name the client).
  yield* sql`
    CREATE TABLE oauth_clients (
      id text PRIMARY KEY,
      kind text NOT NULL CHECK (kind IN ('registered', 'document')),
      name text,
      redirect_uris text[] NOT NULL,
      token_endpoint_auth_method text NOT NULL
        CHECK (token_endpoint_auth_method IN ('none', 'client_secret_basic')),
      secret_hash text,
      metadata jsonb NOT NULL,
      document_expires_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_used_at timestamptz,
      CHECK ((token_endpoint_auth_method = 'client_secret_basic') = (secret_hash IS NOT NULL)),
      CHECK ((kind = 'document') = (document_expires_at IS NOT NULL)),
      CHECK (kind = 'registered' OR secret_hash IS NULL)
    )`
  yield* sql`
    CREATE TABLE oauth_grants (
      id text PRIMARY KEY,
      client_id text NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
      user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      resource text NOT NULL,
      scopes text[] NOT NULL,
      created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
      last_used_at timestamptz,
      revoked_at timestamptz,
      revoked_reason text CHECK (revoked_reason IN ('person', 'organization_admin', 'member_removed',
        'code_reuse', 'refresh_reuse', 'client_revoked', 'expired'))
    )`
  // The two connection lists, newest first, and the grants of one member (ended when they leave).
  yield* sql`CREATE INDEX oauth_grants_user_page_idx ON oauth_grants (user_id, created_at, id) WHERE revoked_at IS NULL`
  yield* sql`
    CREATE INDEX oauth_grants_organization_page_idx ON oauth_grants (organization_id, created_at, id)
    WHERE revoked_at IS NULL`
  yield* sql`
    CREATE INDEX oauth_grants_member_idx ON oauth_grants (organization_id, user_id) WHERE revoked_at IS NULL`
  yield* sql`CREATE INDEX oauth_grants_client_idx ON oauth_grants (client_id)`
  // A code is bound to everything its exchange must match; `grant_id` is set by its first exchange,
  // so that presenting it again revokes what it issued.
  yield* sql`
    CREATE TABLE oauth_codes (
      code_hash text PRIMARY KEY,
      client_id text NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
      redirect_uri text NOT NULL,
      code_challenge text NOT NULL,
      resource text NOT NULL,
      user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      scopes text[] NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      grant_id text REFERENCES oauth_grants (id) ON DELETE CASCADE
    )`
  yield* sql`CREATE INDEX oauth_codes_expiry_idx ON oauth_codes (expires_at)`
  yield* sql`CREATE INDEX oauth_codes_client_idx ON oauth_codes (client_id)`
  yield* sql`
    CREATE TABLE oauth_access_tokens (
      id text PRIMARY KEY,
      token_hash text NOT NULL,
      grant_id text NOT NULL REFERENCES oauth_grants (id) ON DELETE CASCADE,
      scopes text[] NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      revoked_at timestamptz
    )`
  yield* sql`CREATE UNIQUE INDEX oauth_access_tokens_token_hash_key ON oauth_access_tokens (token_hash)`
  yield* sql`CREATE INDEX oauth_access_tokens_grant_idx ON oauth_access_tokens (grant_id)`
  yield* sql`CREATE INDEX oauth_access_tokens_expiry_idx ON oauth_access_tokens (expires_at)`
  // Refresh tokens rotate: a use marks the row used and inserts its successor; a used row is kept
  // until it would have expired, so that presenting it again is recognised and revokes the grant.
  yield* sql`
    CREATE TABLE oauth_refresh_tokens (
      id text PRIMARY KEY,
      token_hash text NOT NULL,
      grant_id text NOT NULL REFERENCES oauth_grants (id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      revoked_at timestamptz
    )`
  yield* sql`CREATE UNIQUE INDEX oauth_refresh_tokens_token_hash_key ON oauth_refresh_tokens (token_hash)`
  yield* sql`CREATE INDEX oauth_refresh_tokens_grant_idx ON oauth_refresh_tokens (grant_id)`
  yield* sql`CREATE INDEX oauth_refresh_tokens_expiry_idx ON oauth_refresh_tokens (expires_at)`
})

/**
 * The organization's notebook (catalog-extensions §12): notes saved by agents for a person, on an
 * episode or one paragraph of its transcript. They go with their organization and their author;
 * the client is kept as its id (client rows may be swept, the record of who wrote stays). The page
 * index serves the list and the count behind the notebook's bound.
 */
const agentNotes = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE notes (
      id text PRIMARY KEY,
      organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      client_id text NOT NULL,
      episode_slug text NOT NULL,
      paragraph_index integer CHECK (paragraph_index >= 0),
      text text NOT NULL CHECK (char_length(text) BETWEEN 1 AND 2000),
      created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now())
    )`
  yield* sql`CREATE INDEX notes_page_idx ON notes (organization_id, created_at, id)`
  yield* sql`CREATE INDEX notes_user_idx ON notes (user_id)`
})

/**
 * An OAuth code and grant belong to the membership they were made in (foundation-extensions §8): a
 * person removed and invited back is a new member row, and nothing made before the removal acts for
 * them again. Existing rows are bound to the membership their person has now; a grant or code whose
 * person is no longer a member, or who became one again after it was made, stays unbound, which no
 * use accepts.
 */
const oauthBoundToMemberships = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE oauth_codes ADD COLUMN member_id text`
  yield* sql`ALTER TABLE oauth_grants ADD COLUMN member_id text`
  yield* sql`
    UPDATE oauth_grants g SET member_id = m.id FROM members m
    WHERE m.user_id = g.user_id AND m.organization_id = g.organization_id
      AND date_trunc('milliseconds', m.created_at) <= g.created_at`
  yield* sql`
    UPDATE oauth_codes c SET member_id = m.id FROM members m
    WHERE m.user_id = c.user_id AND m.organization_id = c.organization_id AND m.created_at <= c.created_at`
})

/** Every migration, by `<id>_<name>`; append new ones, never edit a released one. */
export const migrations = {
  "1_initial_schema": initialSchema,
  "2_page_positions_in_milliseconds": pagePositionsInMilliseconds,
  "3_outbox_delivery_leases": outboxDeliveryLeases,
  "4_signing_keys": signingKeys,
  "5_api_tokens_by_creator": apiTokensByCreator,
  "6_oauth": oauth,
  "7_agent_notes": agentNotes,
  "8_oauth_bound_to_memberships": oauthBoundToMemberships
}

const migrationsTable = "effect_sql_migrations"
/** An arbitrary constant naming the advisory lock of schema migrations. */
const migrationLockKey = 4_190_427_311

/** Brings the schema up to date; returns the migrations it ran (none when already current). */
export const runMigrations = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return yield* sql.withTransaction(
    Effect.gen(function* () {
      yield* sql`SELECT pg_advisory_xact_lock(${migrationLockKey})`
      // The same shape PgMigrator would create, created here under the lock.
      yield* sql`
        CREATE TABLE IF NOT EXISTS ${sql(migrationsTable)} (
          migration_id integer PRIMARY KEY,
          created_at timestamptz NOT NULL DEFAULT now(),
          name text NOT NULL
        )`.withoutTransform
      return yield* PgMigrator.run({ loader: Migrator.fromRecord(migrations), table: migrationsTable })
    })
  )
}).pipe(Effect.provide(NodeContext.layer))
