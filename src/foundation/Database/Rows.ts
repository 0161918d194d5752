// Helpers for reading rows. A row that does not match its schema is a bug of ours, not a condition a
// caller can handle, so it becomes a defect; a unique violation is told apart by its constraint name.
import type { SqlError } from "@effect/sql/SqlError"
import * as Effect from "effect/Effect"
import type { ParseError } from "effect/ParseResult"

export const orDieOnParse = <A, E, R>(
  self: Effect.Effect<A, E | ParseError, R>
): Effect.Effect<A, Exclude<E, ParseError>, R> =>
  Effect.catchIf(
    self,
    (error): error is ParseError =>
      typeof error === "object" && error !== null && "_tag" in error && error._tag === "ParseError",
    (error) => Effect.die(error)
  ) as Effect.Effect<A, Exclude<E, ParseError>, R>

/** True when `error` is the unique violation of `constraint`. */
export const isUniqueViolation = (error: SqlError, constraint: string): boolean => {
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
