// The hot reads' statements run straight on the pool when nothing would record their span. The
// client's own execution wraps every statement in a span (made and ended even when the tracer is
// off), a scope for the connection and their fiber-local bookkeeping: ≈ 24 µs of CPU a statement
// on this machine against ≈ 21 µs for `pg` itself to send it and read the answer (BENCHMARKS.md,
// issue 15). Here the statement is still built and compiled by the client (`sql\`…\``, its name
// transforms), its rows keyed and renamed by the client's own transforms and decoded by the callers'
// schemas; only the execution differs. Inside a transaction, or with the tracer on, the statement
// runs as the client runs it, on the transaction's connection, with its span.
import * as SqlClient from "@effect/sql/SqlClient"
import { SqlError } from "@effect/sql/SqlError"
import type * as Statement from "@effect/sql/Statement"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type * as Pg from "pg"

/** The pool the client was made from, and the client's own transforms of result rows. */
export class DatabasePool extends Context.Tag("DatabasePool")<
  DatabasePool,
  {
    readonly pool: Pg.Pool
    /** A column's name as the client's rows have it (`user_id` → `userId`). */
    readonly columnName: (name: string) => string
    /** A column's value as the client's rows have it (the keys of JSON objects renamed too). */
    readonly columnValue: (value: unknown) => unknown
  }
>() {}

/**
 * The rows of a result read as arrays, as objects keyed as the client keys them: the same objects
 * the client makes from `pg`'s own row objects, made once instead of twice (and each column's name
 * renamed once a statement rather than once a row).
 */
const rowObjects = (
  result: Pg.QueryResult<Array<unknown>>,
  columnName: (name: string) => string,
  columnValue: (value: unknown) => unknown
): Array<Record<string, unknown>> => {
  const names = result.fields.map((field) => columnName(field.name))
  const rows = new Array<Record<string, unknown>>(result.rows.length)
  for (let r = 0; r < rows.length; r++) {
    const values = result.rows[r] as Array<unknown>
    const row: Record<string, unknown> = {}
    for (let c = 0; c < names.length; c++) row[names[c] as string] = columnValue(values[c])
    rows[r] = row
  }
  return rows
}

export class UntracedStatements extends Context.Tag("UntracedStatements")<
  UntracedStatements,
  {
    /** The rows `statement` returns, as the client would return them. */
    readonly rows: <A extends object>(
      statement: Statement.Statement<A>
    ) => Effect.Effect<ReadonlyArray<A>, SqlError>
  }
>() {
  static readonly layer = Layer.effect(
    UntracedStatements,
    Effect.map(DatabasePool, ({ pool, columnName, columnValue }) => ({
      rows: <A extends object>(statement: Statement.Statement<A>) =>
        Effect.withFiberRuntime<ReadonlyArray<A>, SqlError>((fiber) => {
          if (
            fiber.getFiberRef(FiberRef.currentTracerEnabled) ||
            Option.isSome(Context.getOption(fiber.currentContext, SqlClient.TransactionConnection))
          ) {
            return statement
          }
          const [text, params] = statement.compile()
          // No canceller: an interrupted read is left to finish (the statement timeout bounds it) and
          // its connection goes back to the pool as usual; its answer is dropped. As with the client,
          // a statement that fails gives its connection back for reuse (the pool drops a connection
          // that broke); `pool.query` would close it, and PGlite's one connection with it.
          return Effect.async<ReadonlyArray<A>, SqlError>((resume) => {
            pool.connect((connectError, client, release) => {
              if (connectError || client === undefined) {
                resume(
                  Effect.fail(
                    new SqlError({
                      cause: connectError ?? new Error("No client returned"),
                      message: "Failed to acquire connection"
                    })
                  )
                )
                return
              }
              // A connection that dies while checked out emits "error" on its client before its
              // query's callback runs; unheard, that event would end the process (the pool listens
              // only to idle clients). As the client does, the broken connection goes back with its
              // error, so that the pool drops it.
              let settled = false
              const settle = (answer: Effect.Effect<ReadonlyArray<A>, SqlError>, broken?: Error) => {
                if (settled) return
                settled = true
                client.off("error", onError)
                release(broken)
                resume(answer)
              }
              const onError = (cause: Error) =>
                settle(Effect.fail(new SqlError({ cause, message: "Connection error" })), cause)
              client.once("error", onError)
              client.query(
                { text, values: params as Array<unknown>, rowMode: "array" },
                (cause: Error | undefined, result: Pg.QueryResult<Array<unknown>>) =>
                  settle(
                    cause
                      ? Effect.fail(new SqlError({ cause, message: "Failed to execute statement" }))
                      : Effect.succeed(
                          rowObjects(result, columnName, columnValue) as unknown as ReadonlyArray<A>
                        )
                  )
              )
            })
          })
        })
    }))
  )
}
