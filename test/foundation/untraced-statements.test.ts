// The hot reads' statements run on the pool directly (src/foundation/Database/UntracedStatements.ts):
// their rows are the client's rows, a transaction's statements still run on its connection (on
// PGlite's one connection a direct read inside a transaction would wait forever), failures are the
// client's `SqlError`, and with the tracer on each statement is the client's own, with its span.
// Rows read as text for a remembering decoder decode as the client's rows do.
import * as SqlClient from "@effect/sql/SqlClient"
import { SqlError } from "@effect/sql/SqlError"
import { expect, layer } from "@effect/vitest"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Tracer from "effect/Tracer"
import { layerClient } from "../../src/foundation/Database/Database.js"
import { rememberedRows } from "../../src/foundation/Database/RememberedRows.js"
import { UntracedStatements } from "../../src/foundation/Database/UntracedStatements.js"
import { FoundationConfig } from "../../src/foundation/FoundationConfig.js"
import { describeNeeding } from "../support/Needs.js"
import { backends } from "./support/Backends.js"

const clientOn = (env: Record<string, string>) =>
  Layer.provideMerge(UntracedStatements.layer, layerClient).pipe(
    Layer.provide(FoundationConfig.layer("http://127.0.0.1:0")),
    Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))))
  )

/**
 * Runs `body` with the group's client and untraced statements (one database per backend for the
 * file: each test that needs a table makes it anew in `setUp`).
 */
const withStatements = <A, E>(
  body: (
    sql: SqlClient.SqlClient,
    statements: UntracedStatements["Type"]
  ) => Effect.Effect<A, E, SqlClient.SqlClient>
) =>
  Effect.flatMap(Effect.all([SqlClient.SqlClient, UntracedStatements]), ([sql, statements]) =>
    body(sql, statements)
  ).pipe(Effect.withTracerEnabled(false))

const setUp = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.all([
    sql`DROP TABLE IF EXISTS probe`,
    sql`CREATE TABLE probe (probe_id text PRIMARY KEY, made_at timestamptz NOT NULL, big_count bigint NOT NULL,
    doc jsonb NOT NULL, maybe_text text)`,
    sql`INSERT INTO probe VALUES ('a', '2026-01-02T03:04:05.678Z', 42,
        '{"inner_key": [1, 2], "list_of": [{"deep_key": "x"}]}', NULL)`
  ])
)

for (const backend of backends) {
  describeNeeding(backend.missing)(`untraced statements on ${backend.name}`, () => {
    layer(Layer.unwrapScoped(Effect.map(backend.database, clientOn)), { excludeTestServices: true })((it) => {
      it.effect("answer the rows the client answers: names, JSON keys, counters and dates alike", () =>
        withStatements((sql, statements) =>
          Effect.gen(function* () {
            yield* setUp
            const statement = sql`SELECT probe_id, made_at, big_count, doc, maybe_text, probe_id AS again FROM probe WHERE probe_id = ${"a"}`
            const direct = yield* statements.rows(statement)
            const viaClient = yield* statement
            expect(direct).toEqual(viaClient)
            expect(direct).toEqual([
              {
                probeId: "a",
                madeAt: new Date("2026-01-02T03:04:05.678Z"),
                bigCount: 42,
                doc: { innerKey: [1, 2], listOf: [{ deepKey: "x" }] },
                maybeText: null,
                again: "a"
              }
            ])
          })
        )
      )

      it.effect("decode rows read as text as the client's rows decode, and see a change at once", () =>
        withStatements((sql, statements) =>
          Effect.gen(function* () {
            yield* setUp
            const Probe = Schema.Struct({
              probeId: Schema.String,
              madeAt: Schema.DateFromSelf,
              bigCount: Schema.Number,
              doc: Schema.Struct({
                innerKey: Schema.Array(Schema.Number),
                listOf: Schema.Array(Schema.Unknown)
              }),
              maybeText: Schema.NullOr(Schema.String)
            })
            const decoder = rememberedRows(Probe, "probeId")
            const read = sql`SELECT probe_id, made_at, big_count, doc, maybe_text FROM probe ORDER BY probe_id`
            const viaClient = yield* Effect.flatMap(read, rememberedRows(Probe, "probeId").all)
            const [first] = yield* statements.all(read, decoder)
            expect([first]).toEqual(viaClient)
            expect(yield* statements.first(read, decoder)).toEqual(Option.some(first))
            expect(Option.getOrThrow(yield* statements.first(read, decoder))).toBe(first)
            yield* sql`UPDATE probe SET big_count = 43, maybe_text = 'now', doc = '{"inner_key": [3], "list_of": []}'`
            const [changed] = yield* statements.all(read, decoder)
            expect(changed).toEqual({
              ...first,
              bigCount: 43,
              maybeText: "now",
              doc: { innerKey: [3], listOf: [] }
            })
            expect(yield* statements.first(sql`SELECT probe_id FROM probe WHERE false`, decoder)).toEqual(
              Option.none()
            )
          })
        )
      )

      it.effect("inside a transaction read on the transaction's connection", () =>
        withStatements((sql, statements) =>
          Effect.gen(function* () {
            yield* setUp
            const seen = yield* sql
              .withTransaction(
                Effect.gen(function* () {
                  yield* sql`INSERT INTO probe VALUES ('b', now(), 1, '{}', NULL)`
                  const read = sql`SELECT probe_id FROM probe ORDER BY probe_id`
                  const decoder = rememberedRows(Schema.Struct({ probeId: Schema.String }), "probeId")
                  return [yield* statements.rows(read), yield* statements.all(read, decoder)]
                })
              )
              .pipe(Effect.timeout("5 seconds"))
            // The uncommitted row is visible only on the transaction's own connection.
            expect(seen).toEqual([
              [{ probeId: "a" }, { probeId: "b" }],
              [{ probeId: "a" }, { probeId: "b" }]
            ])
          })
        )
      )

      it.effect("fail with the client's SqlError, and the pool serves the next read", () =>
        withStatements((sql, statements) =>
          Effect.gen(function* () {
            const failure = yield* Effect.flip(statements.rows(sql`SELECT * FROM no_such_table`))
            expect(failure).toBeInstanceOf(SqlError)
            expect(yield* statements.rows(sql`SELECT 1 AS one`)).toEqual([{ one: 1 }])
          })
        )
      )

      it.effect("interrupted, leave the connection to the pool", () =>
        withStatements((sql, statements) =>
          Effect.gen(function* () {
            const slow = yield* Effect.fork(statements.rows(sql`SELECT pg_sleep(0.2) AS slept`))
            yield* Effect.sleep("20 millis")
            yield* Fiber.interrupt(slow)
            // PGlite has one connection: the next read waits for the interrupted one, then runs.
            for (let i = 0; i < 3; i++) {
              expect(yield* statements.rows(sql`SELECT ${i}::int AS i`)).toEqual([{ i }])
            }
          })
        )
      )

      // PGlite is one connection: nothing else could end it while a statement runs on it (its end is
      // the stopped-server test's, test/foundation/database.test.ts).
      if (backend.name === "PostgreSQL")
        it.effect(
          "a connection ended by the server mid-statement fails that read, and the pool serves the next",
          () =>
            withStatements((sql, statements) =>
              Effect.gen(function* () {
                const slow = yield* Effect.fork(
                  Effect.either(
                    statements.rows(sql`SELECT pg_sleep(30) AS slept, 'ended mid-statement' AS marker`)
                  )
                )
                // Wait until the slow statement runs, then end its backend from another connection.
                let ended = false
                for (let attempt = 0; attempt < 100 && !ended; attempt++) {
                  yield* Effect.sleep("20 millis")
                  const rows = yield* sql<{ ended: boolean }>`
                SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity
                WHERE datname = current_database() AND pid <> pg_backend_pid()
                  AND state = 'active' AND query LIKE '%ended mid-statement%'`
                  ended = rows.some((row) => row.ended)
                }
                expect(ended).toBe(true)
                const outcome = yield* Fiber.join(slow)
                expect(Either.isLeft(outcome) && outcome.left).toBeInstanceOf(SqlError)
                // The broken connection left the pool: every following read gets a working one.
                for (let i = 0; i < 12; i++) {
                  expect(yield* statements.rows(sql`SELECT ${i}::int AS i`)).toEqual([{ i }])
                }
              }).pipe(Effect.timeout("20 seconds"))
            )
        )

      it.effect("with the tracer on, run as the client runs them, with its span", () => {
        const names: Array<string> = []
        return withStatements((sql, statements) =>
          Effect.gen(function* () {
            const native = yield* Effect.tracer
            const recording = Tracer.make({
              span: (name, parent, context, links, startTime, kind, options) => {
                names.push(name)
                return native.span(name, parent, context, links, startTime, kind, options)
              },
              context: native.context
            })
            yield* statements.rows(sql`SELECT 1 AS one`)
            expect(names).toEqual([])
            yield* statements
              .rows(sql`SELECT 1 AS one`)
              .pipe(Effect.withTracerEnabled(true), Effect.withTracer(recording))
            expect(names).toEqual(["sql.execute"])
          })
        )
      })
    })
  })
}
