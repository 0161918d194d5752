// The hot reads' statements run straight on the pool when nothing would record their span. The
// client's own execution wraps every statement in a span (made and ended even when the tracer is
// off), a scope for the connection and their fiber-local bookkeeping: ≈ 24 µs of CPU a statement
// on this machine against ≈ 21 µs for `pg` itself to send it and read the answer (bench/HISTORY.md,
// issue 15). Here the statement is still built and compiled by the client (`sql\`…\``, its name
// transforms), its rows keyed and renamed by the client's own transforms and decoded by the callers'
// schemas; only the execution differs. Inside a transaction, or with the tracer on, the statement
// runs as the client runs it, on the transaction's connection, with its span.
// Rows meant for a remembering decoder (`first`, `all`) are read as the text PostgreSQL sent and
// handed to it as that text: a row it remembers is never parsed (RememberedRows.ts).
import * as SqlClient from "@effect/sql/SqlClient"
import { SqlError } from "@effect/sql/SqlError"
import type * as Statement from "@effect/sql/Statement"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type * as ParseResult from "effect/ParseResult"
import * as Pg from "pg"
import type { RowDecoder, TextRows } from "./RememberedRows.js"

/** The pool the client was made from, and the client's own transforms of result rows. */
export class DatabasePool extends Context.Tag("DatabasePool")<
  DatabasePool,
  {
    readonly pool: Pg.Pool
    /** A column's name as the client's rows have it (`user_id` → `userId`). */
    readonly columnName: (name: string) => string
    /** A column's value as the client's rows have it (the keys of JSON objects renamed too). */
    readonly columnValue: (value: unknown) => unknown
    /** The client's parser of a column of this type sent as text. */
    readonly columnParser: (dataTypeId: number) => (text: string) => unknown
  }
>() {}

/** Every column left as the text PostgreSQL sent: parsing waits until a row is not remembered. */
const asText = {
  getTypeParser: () => (text: string) => text
} as unknown as Pg.CustomTypesConfig

/** A result read as text, with each row made on demand into the object the client would make. */
const textRows = (
  result: Pg.QueryResult<Array<string | null>>,
  { columnName, columnValue, columnParser }: Omit<typeof DatabasePool.Service, "pool">
): TextRows => {
  const names = result.fields.map((field) => columnName(field.name))
  const parsers = result.fields.map((field) => columnParser(field.dataTypeID))
  return {
    names,
    rows: result.rows,
    object: (index) => {
      const text = result.rows[index] as Array<string | null>
      const row: Record<string, unknown> = {}
      for (let c = 0; c < names.length; c++) {
        const value = text[c]
        row[names[c] as string] =
          value === null || value === undefined ? null : columnValue(parsers[c]?.(value))
      }
      return row
    }
  }
}

/**
 * Whether a statement's failure leaves its connection unusable: the server ended the session (a
 * FATAL or PANIC error, as when the backend is terminated, which arrives before the socket closes)
 * or the failure is not the server's answer at all. Given back as it is, such a connection would be
 * lent to the next read, which would fail too; given back with the error, the pool drops it.
 */
const endsConnection = (cause: Error): boolean =>
  !(cause instanceof Pg.DatabaseError) || cause.severity === "FATAL" || cause.severity === "PANIC"

/** Whether a statement run now would record a span or belong to a transaction. */
const runsAsClient = (fiber: {
  getFiberRef: <A>(ref: FiberRef.FiberRef<A>) => A
  currentContext: Context.Context<never>
}) =>
  fiber.getFiberRef(FiberRef.currentTracerEnabled) ||
  Option.isSome(Context.getOption(fiber.currentContext, SqlClient.TransactionConnection))

export class UntracedStatements extends Context.Tag("UntracedStatements")<
  UntracedStatements,
  {
    /** The rows `statement` returns, as the client would return them. */
    readonly rows: <A extends object>(
      statement: Statement.Statement<A>
    ) => Effect.Effect<ReadonlyArray<A>, SqlError>
    /** The first row `statement` returns, if any, decoded by `decoder`. */
    readonly first: <A>(
      statement: Statement.Statement<unknown>,
      decoder: RowDecoder<A>
    ) => Effect.Effect<Option.Option<A>, SqlError | ParseResult.ParseError>
    /** The rows `statement` returns, decoded by `decoder`. */
    readonly all: <A>(
      statement: Statement.Statement<unknown>,
      decoder: RowDecoder<A>
    ) => Effect.Effect<ReadonlyArray<A>, SqlError | ParseResult.ParseError>
  }
>() {
  static readonly layer = Layer.effect(
    UntracedStatements,
    Effect.map(DatabasePool, ({ pool, ...transforms }) => {
      /** The statement's rows as text, run on a connection of the pool. */
      const onPool = (statement: Statement.Statement<unknown>): Effect.Effect<TextRows, SqlError> => {
        const [text, params] = statement.compile()
        // No canceller: an interrupted read is left to finish (the statement timeout bounds it) and
        // its connection goes back to the pool as usual; its answer is dropped. A statement the server
        // refused gives its connection back for reuse (`pool.query` would close it, and PGlite's one
        // connection with it); one whose connection ended gives it back broken (`endsConnection`).
        return Effect.async<TextRows, SqlError>((resume) => {
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
            const settle = (answer: Effect.Effect<TextRows, SqlError>, broken?: Error) => {
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
              { text, values: params as Array<unknown>, rowMode: "array", types: asText },
              (cause: Error | undefined, result: Pg.QueryResult<Array<string | null>>) =>
                cause
                  ? settle(
                      Effect.fail(new SqlError({ cause, message: "Failed to execute statement" })),
                      endsConnection(cause) ? cause : undefined
                    )
                  : settle(Effect.succeed(textRows(result, transforms)))
            )
          })
        })
      }

      return {
        rows: <A extends object>(statement: Statement.Statement<A>) =>
          Effect.withFiberRuntime<ReadonlyArray<A>, SqlError>((fiber) =>
            runsAsClient(fiber)
              ? statement
              : Effect.map(onPool(statement), (result) =>
                  result.rows.map((_, index) => result.object(index) as A)
                )
          ),
        first: <A>(statement: Statement.Statement<unknown>, decoder: RowDecoder<A>) =>
          Effect.withFiberRuntime<Option.Option<A>, SqlError | ParseResult.ParseError>((fiber) =>
            runsAsClient(fiber)
              ? Effect.flatMap(statement, decoder.first)
              : Effect.flatMap(onPool(statement), decoder.firstText)
          ),
        all: <A>(statement: Statement.Statement<unknown>, decoder: RowDecoder<A>) =>
          Effect.withFiberRuntime<ReadonlyArray<A>, SqlError | ParseResult.ParseError>((fiber) =>
            runsAsClient(fiber)
              ? Effect.flatMap(statement, decoder.all)
              : Effect.flatMap(onPool(statement), decoder.allText)
          )
      }
    })
  )
}
