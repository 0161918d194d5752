// Tells a database that cannot answer now (down, restarting, overloaded, too slow) from a query that
// is wrong. The first is the contract's 503 with Retry-After; the second is a bug, hence a defect.
import type { SqlError } from "@effect/sql/SqlError"
import * as Effect from "effect/Effect"
import { ServiceUnavailable } from "../../http/ApiError.js"

/** SQLSTATEs that say "try again later" rather than "this query is wrong". */
const transientStates = new Set([
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now (starting up, shutting down, in recovery)
  "57014", // query_canceled: statement_timeout
  "53300", // too_many_connections
  "53400", // configuration_limit_exceeded
  "40001", // serialization_failure
  "40P01" // deadlock_detected
])

/** A server-side error carries a five-character SQLSTATE and a severity; network errors do not. */
const sqlState = (cause: unknown): string | undefined =>
  typeof cause === "object" &&
  cause !== null &&
  "severity" in cause &&
  "code" in cause &&
  typeof cause.code === "string" &&
  cause.code.length === 5
    ? cause.code
    : undefined

export const isUnavailable = (error: SqlError): boolean => {
  const state = sqlState(error.cause)
  // No SQLSTATE: the connection could not be made, was cut, or timed out.
  return state === undefined || state.startsWith("08") || transientStates.has(state)
}

/** The 503 answer used while the database cannot be reached. */
export const unavailable = () =>
  new ServiceUnavailable({ message: "The service is temporarily unavailable.", retryAfterSeconds: 5 })

/**
 * Handles the `SqlError`s left after a service's own handling: an unreachable database becomes 503;
 * anything else is a defect (logged with its cause by the error renderer, answered 500).
 */
export const orUnavailable = <A, E, R>(
  self: Effect.Effect<A, E, R>
): Effect.Effect<A, Exclude<E, SqlError> | ServiceUnavailable, R> =>
  Effect.catchIf(
    self,
    (error): error is Extract<E, SqlError> =>
      typeof error === "object" && error !== null && "_tag" in error && error._tag === "SqlError",
    (error) => (isUnavailable(error) ? Effect.fail(unavailable()) : Effect.die(error))
  ) as Effect.Effect<A, Exclude<E, SqlError> | ServiceUnavailable, R>
