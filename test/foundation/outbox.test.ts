// The outbox worker on its own, with a transport the tests control: delivery happens outside the
// statement that leases a message (no lock held, the one PGlite connection free), a failing
// transport is retried with a doubling back-off and its last error kept, nothing is dropped, a
// lease left by a crashed worker runs out and the message goes again with the same id, and two
// workers never send one message twice.
import * as SqlClient from "@effect/sql/SqlClient"
import { expect, layer } from "@effect/vitest"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Ref from "effect/Ref"
import { layerDatabase } from "../../src/foundation/Database/Database.js"
import { FoundationConfig } from "../../src/foundation/FoundationConfig.js"
import { MailTransport, type OutboxMessage } from "../../src/foundation/Outbox/MailTransport.js"
import { Outbox, OutboxWorker } from "../../src/foundation/Outbox/Outbox.js"
import { describeNeeding } from "../support/Needs.js"
import { backends } from "./support/Backends.js"

/** What the test transport does with a message, by recipient; unknown recipients are delivered. */
type Behaviour = (message: OutboxMessage) => Effect.Effect<void, Error>

interface Delivery {
  readonly id: number
  readonly recipient: string
  readonly at: number
  readonly ok: boolean
}

/** The transport's behaviours and the record of every call it got. */
class TestTransport extends Context.Tag("TestTransport")<
  TestTransport,
  {
    readonly behave: (recipient: string, behaviour: Behaviour) => Effect.Effect<void>
    readonly calls: (recipient: string) => Effect.Effect<ReadonlyArray<Delivery>>
  }
>() {}

const testTransport = Layer.effectContext(
  Effect.gen(function* () {
    const behaviours = yield* Ref.make(new Map<string, Behaviour>())
    const log = yield* Ref.make<ReadonlyArray<Delivery>>([])
    const record = (message: OutboxMessage, ok: boolean) =>
      Ref.update(log, (all) => [...all, { id: message.id, recipient: message.recipient, at: Date.now(), ok }])
    const deliver = (message: OutboxMessage) =>
      Effect.flatMap(Ref.get(behaviours), (all) =>
        (all.get(message.recipient) ?? (() => Effect.void))(message)
      ).pipe(
        Effect.tapBoth({ onFailure: () => record(message, false), onSuccess: () => record(message, true) })
      )
    return Context.make(MailTransport, { deliver }).pipe(
      Context.add(TestTransport, {
        behave: (recipient, behaviour) =>
          Ref.update(behaviours, (all) => new Map(all).set(recipient, behaviour)),
        calls: (recipient) =>
          Effect.map(Ref.get(log), (all) => all.filter((delivery) => delivery.recipient === recipient))
      })
    )
  })
)

const RETRY_BASE_MS = 100

/** A migrated database, the outbox and one worker using the test transport. */
const withWorker = (database: Record<string, string>) =>
  OutboxWorker.pipe(
    Layer.provideMerge(Outbox.Default),
    Layer.provideMerge(testTransport),
    Layer.provideMerge(layerDatabase),
    Layer.provideMerge(FoundationConfig.layer("http://127.0.0.1:0")),
    Layer.provide(
      Layer.setConfigProvider(
        ConfigProvider.fromMap(
          new Map(
            Object.entries({ OUTBOX_POLL_MS: "20", OUTBOX_RETRY_BASE_MS: String(RETRY_BASE_MS), ...database })
          )
        )
      )
    )
  )

let counter = 0
const recipient = (label: string) => `${label}.${process.pid}.${Date.now()}.${counter++}@example.com`

/** Writes a message and wakes the worker, as a service does after its transaction. */
const send = (to: string, link = "http://foundation.test/verify-email?token=secret") =>
  Effect.flatMap(Outbox, (outbox) =>
    Effect.zipRight(outbox.enqueue({ kind: "verify-email", recipient: to, link }), outbox.wake)
  )

interface OutboxRow {
  readonly id: number
  readonly attempts: number
  readonly lastError: string | null
  readonly link: string | null
  readonly delivered: boolean
  readonly leased: boolean
}

const rowOf = (to: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.map(
      sql<OutboxRow>`
        SELECT id, attempts, last_error, link, delivered_at IS NOT NULL AS delivered,
          claimed_until IS NOT NULL AS leased
        FROM outbox WHERE recipient = ${to}`,
      (rows) => {
        const [row] = rows
        if (row === undefined || rows.length !== 1) throw new Error(`expected one message to ${to}`)
        return row
      }
    )
  ).pipe(Effect.orDie)

/** Polls `check` until it holds, for at most `seconds`. */
const eventually = <A, R>(read: Effect.Effect<A, never, R>, check: (a: A) => boolean, seconds = 10) =>
  Effect.gen(function* () {
    const deadline = Date.now() + seconds * 1000
    let last = yield* read
    while (!check(last) && Date.now() < deadline) {
      yield* Effect.sleep("20 millis")
      last = yield* read
    }
    return last
  })

for (const backend of backends) {
  describeNeeding(backend.missing)(`the outbox worker on ${backend.name}`, () => {
    layer(Layer.unwrapScoped(Effect.map(backend.database, withWorker)), {
      timeout: 120_000,
      excludeTestServices: true
    })((it) => {
      it.effect("delivers outside the statement that leases: no lock held, other queries run meanwhile", () =>
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const transport = yield* TestTransport
          const to = recipient("slow")
          const started = yield* Deferred.make<void>()
          const release = yield* Deferred.make<void>()
          yield* transport.behave(to, () =>
            Effect.zipRight(Deferred.succeed(started, undefined), Deferred.await(release))
          )
          yield* send(to)
          yield* Deferred.await(started).pipe(Effect.timeout("10 seconds"))
          // The transport is busy with the message now. On PGlite the pool has one connection: these
          // statements can run only if the worker is not holding it.
          const { id } = yield* rowOf(to)
          const locked = yield* sql
            .withTransaction(sql`SELECT id FROM outbox WHERE id = ${id} FOR UPDATE NOWAIT`)
            .pipe(Effect.timeout("5 seconds"))
          expect(locked).toEqual([{ id }])
          const other = recipient("meanwhile")
          yield* send(other).pipe(Effect.timeout("5 seconds"))
          expect(yield* rowOf(to)).toMatchObject({ delivered: false, leased: true, attempts: 1 })
          yield* Deferred.succeed(release, undefined)
          const done = yield* eventually(rowOf(to), (row) => row.delivered)
          expect(done).toMatchObject({ delivered: true, leased: false, link: null, lastError: null })
          expect((yield* eventually(rowOf(other), (row) => row.delivered)).delivered).toBe(true)
        })
      )

      it.effect(
        "a transport that fails three times is retried with a doubling back-off, and the message goes once",
        () =>
          Effect.gen(function* () {
            const transport = yield* TestTransport
            const to = recipient("flaky")
            const failures = yield* Ref.make(0)
            yield* transport.behave(to, () =>
              Effect.flatMap(
                Ref.getAndUpdate(failures, (n) => n + 1),
                (n) => (n < 3 ? Effect.fail(new Error(`mail server said no (${n + 1})`)) : Effect.void)
              )
            )
            yield* send(to)
            const done = yield* eventually(rowOf(to), (row) => row.delivered)
            expect(done).toMatchObject({
              delivered: true,
              attempts: 4,
              // The last failure stays on record after the message went.
              lastError: "mail server said no (3)",
              link: null,
              leased: false
            })
            // Nothing more goes out later.
            yield* Effect.sleep("300 millis")
            const calls = yield* transport.calls(to)
            expect(calls.map((call) => call.ok)).toEqual([false, false, false, true])
            expect(new Set(calls.map((call) => call.id))).toEqual(new Set([done.id]))
            const gaps = calls.slice(1).map((call, i) => call.at - (calls[i]?.at ?? 0))
            gaps.forEach((gap, i) => {
              // 100, 200, then 400 ms at least (the clock is read in whole milliseconds).
              expect(gap, `wait before attempt ${i + 2}`).toBeGreaterThanOrEqual(RETRY_BASE_MS * 2 ** i - 2)
            })
          })
      )

      it.effect("a transport that always fails keeps the message, its link and the count of attempts", () =>
        Effect.gen(function* () {
          const transport = yield* TestTransport
          const to = recipient("down")
          yield* transport.behave(to, () => Effect.fail(new Error("connection refused")))
          yield* send(to, "http://foundation.test/verify-email?token=kept")
          const row = yield* eventually(rowOf(to), (row) => row.attempts >= 3 && !row.leased)
          expect(row).toMatchObject({
            delivered: false,
            lastError: "connection refused",
            link: "http://foundation.test/verify-email?token=kept"
          })
          const calls = yield* transport.calls(to)
          expect(calls.every((call) => !call.ok)).toBe(true)
          expect(calls.length).toBe(row.attempts)
        })
      )

      it.effect(
        "a message leased by a worker that stopped goes again with the same id once the lease runs out",
        () =>
          Effect.gen(function* () {
            const sql = yield* SqlClient.SqlClient
            const transport = yield* TestTransport
            const to = recipient("crashed")
            // As a worker leaves it when it dies after sending and before recording: leased, attempted once.
            const [inserted] = yield* sql<{ id: number }>`
              INSERT INTO outbox (kind, recipient, link, attempts, claimed_until)
              VALUES ('verify-email', ${to}, 'http://foundation.test/verify-email?token=again', 1,
                now() + interval '1 second')
              RETURNING id`
            yield* Effect.flatMap(Outbox, (outbox) => outbox.wake)
            yield* Effect.sleep("500 millis")
            expect(yield* transport.calls(to)).toEqual([])
            const done = yield* eventually(rowOf(to), (row) => row.delivered)
            expect(done).toMatchObject({ delivered: true, attempts: 2 })
            expect((yield* transport.calls(to)).map((call) => call.id)).toEqual([inserted?.id])
          })
      )

      it.effect("two workers on one database send each message exactly once", () =>
        Effect.gen(function* () {
          const transport = yield* TestTransport
          // A second instance's worker, sharing the database and the transport's record.
          yield* Layer.build(OutboxWorker)
          const many = Array.from({ length: 45 }, () => recipient("many"))
          for (const to of many) {
            yield* transport.behave(to, () => Effect.sleep("2 millis"))
            yield* send(to)
          }
          for (const to of many)
            expect((yield* eventually(rowOf(to), (row) => row.delivered)).delivered).toBe(true)
          yield* Effect.sleep("200 millis")
          for (const to of many) expect((yield* transport.calls(to)).length, to).toBe(1)
        }).pipe(Effect.scoped)
      )
    })
  })
}
