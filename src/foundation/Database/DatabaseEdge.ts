// Where the database's failures become the domain's, once, for every repository: a database that
// cannot answer now (down, restarting, overloaded, too slow) is `DatabaseUnavailable` (503 with
// Retry-After); a query that is wrong (a syntax error, a constraint nobody expected) or a row that
// does not match its schema is a bug of ours, hence a defect, logged with its cause and answered 500,
// never passed off as "unavailable". Constraints a caller can act on (a taken slug or email) are
// told apart by name in the repository that expects them, before they reach this edge.
import * as SqlClient from "@effect/sql/SqlClient"
import { SqlError } from "@effect/sql/SqlError"
import * as Effect from "effect/Effect"
import * as ParseResult from "effect/ParseResult"
import { DatabaseUnavailable } from "../Domain/Errors.js"
import { traced } from "../Traced.js"

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

/** True when `error` is the unique violation of `constraint`. */
const isUniqueViolation = (error: SqlError, constraint: string): boolean => {
  const cause: unknown = error.cause
  return (
    typeof cause === "object" &&
    cause !== null &&
    "code" in cause &&
    cause.code === "23505" &&
    "constraint" in cause &&
    cause.constraint === constraint
  )
}

/** Fails with `toError()` on the unique violation of `constraint`; other failures pass on. */
export const onUniqueViolation =
  <E2>(constraint: string, toError: () => E2) =>
  <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E | E2, R> =>
    Effect.catchIf(
      self,
      (error) => error instanceof SqlError && isUniqueViolation(error, constraint),
      () => Effect.fail(toError())
    )

/**
 * Meets the database's failures: `SqlError` becomes `DatabaseUnavailable` when the database cannot
 * answer now and a defect otherwise; a row that failed its schema (`ParseError`) is a defect.
 */
export const atDatabaseEdge = <A, E, R>(
  self: Effect.Effect<A, E, R>
): Effect.Effect<A, Exclude<E, SqlError | ParseResult.ParseError> | DatabaseUnavailable, R> =>
  Effect.catchAll(
    self,
    (error): Effect.Effect<never, Exclude<E, SqlError | ParseResult.ParseError> | DatabaseUnavailable> => {
      if (error instanceof SqlError) {
        return isUnavailable(error) ? Effect.fail(new DatabaseUnavailable()) : Effect.die(error)
      }
      if (error instanceof ParseResult.ParseError) return Effect.die(error)
      // Both kinds were handled above; TypeScript cannot narrow a type parameter by `instanceof`.
      return Effect.fail(error as Exclude<E, SqlError | ParseResult.ParseError>)
    }
  )

/** A repository operation: traced as `name`, its failures met at the database edge. */
export const repositoryCall = <Args extends ReadonlyArray<unknown>, A, E, R>(
  name: string,
  body: (...args: Args) => Effect.Effect<A, E, R>
): ((
  ...args: Args
) => Effect.Effect<A, Exclude<E, SqlError | ParseResult.ParseError> | DatabaseUnavailable, R>) =>
  traced(name, (...args: Args) => atDatabaseEdge(body(...args)))

/**
 * Runs work in one transaction (a nested call joins the enclosing one). Its own statements (BEGIN,
 * COMMIT, ROLLBACK) meet the edge like any query: a COMMIT the database refuses for a serialization
 * failure is `DatabaseUnavailable`, and the work can be retried.
 */
export class Transactions extends Effect.Service<Transactions>()("Transactions", {
  effect: Effect.map(SqlClient.SqlClient, (sql) => ({
    run: <A, E, R>(
      work: Effect.Effect<A, E, R>
    ): Effect.Effect<A, Exclude<E, SqlError | ParseResult.ParseError> | DatabaseUnavailable, R> =>
      atDatabaseEdge(sql.withTransaction(work))
  }))
}) {}
