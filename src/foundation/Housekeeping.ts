// Periodic removal of rows that can no longer matter: sessions and email tokens long expired or
// revoked, delivered outbox messages, and rate-limit windows that are over. Every instance runs it;
// the deletes are idempotent, so running it twice at once is harmless.
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
      sql`DELETE FROM rate_limit_counters WHERE window_start < now() - interval '1 hour'`
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
