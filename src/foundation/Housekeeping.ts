// Periodic removal of rows that can no longer matter: sessions and email tokens long expired or
// revoked, delivered outbox messages, rate-limit windows that are over, and OAuth codes, tokens,
// grants and clients that can no longer be used. Every instance runs it; the deletes are idempotent,
// so running it twice at once is harmless.
import * as SqlClient from "@effect/sql/SqlClient"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import { atDatabaseEdge } from "./Database/DatabaseEdge.js"

/** One pass over every table; the layer below repeats it every ten minutes. */
export const housekeepingSweep = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.all(
    [
      // Kept a month after they end, so support can still see recent sign-outs and revocations.
      sql`DELETE FROM sessions WHERE expires_at < now() - interval '30 days' OR revoked_at < now() - interval '30 days'`,
      sql`DELETE FROM email_verifications WHERE expires_at < now() - interval '7 days'`,
      sql`DELETE FROM outbox WHERE delivered_at < now() - interval '30 days'`,
      sql`DELETE FROM rate_limit_counters WHERE window_start < now() - interval '1 hour'`,
      // OAuth: secrets a day past their expiry (a used refresh token is kept until it would have
      // expired, so that presenting it again is still recognised as reuse).
      sql`DELETE FROM oauth_codes WHERE expires_at < now() - interval '1 day'`,
      sql`DELETE FROM oauth_access_tokens WHERE expires_at < now() - interval '1 day'`,
      sql`DELETE FROM oauth_refresh_tokens WHERE expires_at < now() - interval '1 day'`,
      // A grant that can issue no more tokens and has none left is over: it leaves the connections.
      sql`
        UPDATE oauth_grants g SET revoked_at = now(), revoked_reason = 'expired'
        WHERE g.revoked_at IS NULL AND g.created_at < now() - interval '1 day'
          AND NOT EXISTS (SELECT 1 FROM oauth_refresh_tokens r WHERE r.grant_id = g.id
            AND r.used_at IS NULL AND r.revoked_at IS NULL AND r.expires_at > now())
          AND NOT EXISTS (SELECT 1 FROM oauth_access_tokens a WHERE a.grant_id = g.id
            AND a.revoked_at IS NULL AND a.expires_at > now())`,
      sql`DELETE FROM oauth_grants WHERE revoked_at < now() - interval '30 days'`,
      // Registrations nobody used within a week, and metadata documents long past their cache time,
      // unless a grant still names them.
      sql`
        DELETE FROM oauth_clients c
        WHERE ((c.kind = 'registered' AND c.last_used_at IS NULL AND c.created_at < now() - interval '7 days')
            OR (c.kind = 'document' AND c.document_expires_at < now() - interval '1 day'))
          AND NOT EXISTS (SELECT 1 FROM oauth_grants g WHERE g.client_id = c.id)`
    ],
    { discard: true }
  )
).pipe(atDatabaseEdge)

/**
 * One pass that never fails: a database that cannot answer now skips it quietly (the next pass
 * will do its work); anything else is a bug, logged as an error with its cause.
 */
export const housekeepingPass = housekeepingSweep.pipe(
  Effect.catchAllCause((cause) =>
    Option.isSome(Cause.failureOption(cause))
      ? Effect.logDebug("Housekeeping skipped: the database is unavailable")
      : Effect.logError("Housekeeping failed", cause)
  )
)

export const Housekeeping = Layer.scopedDiscard(
  Effect.gen(function* () {
    yield* housekeepingPass.pipe(
      Effect.repeat(Schedule.spaced("10 minutes")),
      Effect.delay("1 minute"),
      Effect.forkScoped
    )
  })
)
