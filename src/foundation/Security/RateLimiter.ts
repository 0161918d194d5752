// Fixed-window request counters kept in PostgreSQL, so that every instance of the service counts
// against the same limits. Small limits (sign-in attempts, the tests' credential limits) are counted
// exactly: one upsert per check. Large ones are counted here first and added to the shared row in
// batches: an instance admits up to `batchFor(limit)` events of a key without a round trip while the
// count it last read leaves room for them, writes them when the batch is full (the request that
// fills it waits for the answer) and every FLUSH_SLICE otherwise. Whatever an instance admitted
// unwritten is at most one batch, so N instances admit at most `limit + (N - 1) × batchFor(limit)`
// events a window (1% of the limit per other instance); a refusal always comes from the shared row.
// `Housekeeping` sweeps windows that are over.
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import { countRefusal } from "../../observability/ServiceMetrics.js"
import { repositoryCall } from "../Database/DatabaseEdge.js"
import { RateLimited } from "../Domain/Errors.js"

const CounterRow = Schema.Struct({ count: Schema.Int, secondsLeft: Schema.Number })

/** How often an instance writes the events it counted locally. */
const FLUSH_SLICE = "250 millis"

/** Events an instance may admit unwritten: 1% of the limit, at most 100; none below 100. */
export const batchFor = (limit: number): number => Math.min(100, Math.floor(limit / 100))

/** What this instance knows of one key's current window. */
interface LocalCounter {
  /** The shared count as last read (it only grows within a window). */
  known: number
  /** Events admitted here and not yet written. */
  pending: number
  /** Events admitted here whose write is under way (neither in `known` nor in `pending`). */
  writing: number
  /** Local clock (ms) at which the window the count belongs to ends. */
  windowEndsAt: number
  readonly windowSeconds: number
}

/** The name of the limit a key counts for: its prefix (`credential`, `auth-address`, `oauth-token`…). */
const limitOf = (key: string): string => {
  const colon = key.indexOf(":")
  return colon === -1 ? key : key.slice(0, colon)
}

export class RateLimiter extends Effect.Service<RateLimiter>()("RateLimiter", {
  scoped: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const counters = new Map<string, LocalCounter>()

    const add = SqlSchema.single({
      Request: Schema.Struct({ key: Schema.String, events: Schema.Int, windowSeconds: Schema.Int }),
      Result: CounterRow,
      execute: ({ key, events, windowSeconds }) => sql`
        INSERT INTO rate_limit_counters AS c (key, window_start, count)
        VALUES (${key}, to_timestamp(floor(extract(epoch FROM now()) / ${windowSeconds}::int) * ${windowSeconds}::int), ${events}::int)
        ON CONFLICT (key) DO UPDATE SET
          count = CASE WHEN c.window_start = EXCLUDED.window_start THEN c.count + EXCLUDED.count ELSE EXCLUDED.count END,
          window_start = EXCLUDED.window_start
        RETURNING count,
          extract(epoch FROM (window_start + make_interval(secs => ${windowSeconds}::int) - now()))::float8
            AS seconds_left`
    })

    /** Adds `events` to the shared row and remembers what it says (for keys counted locally). */
    const write = (key: string, events: number, windowSeconds: number, remember: boolean) =>
      add({ key, events, windowSeconds }).pipe(
        // An upsert always returns its row.
        Effect.catchTag("NoSuchElementException", (error) => Effect.die(error)),
        Effect.tap((row) =>
          Effect.sync(() => {
            if (!remember) return
            const counter = counters.get(key)
            const windowEndsAt = Date.now() + row.secondsLeft * 1000
            if (counter === undefined) {
              counters.set(key, { known: row.count, pending: 0, writing: 0, windowEndsAt, windowSeconds })
            } else {
              counter.known = row.count
              counter.windowEndsAt = windowEndsAt
            }
          })
        )
      )

    /**
     * Counts one event under `key` and fails with 429 once more than `limit` happened in the
     * current window of `windowSeconds` (windows are aligned on the clock of the database, which
     * all instances share).
     */
    const consume = repositoryCall(
      "RateLimiter.consume",
      (key: string, limit: number, windowSeconds: number = 60) => {
        const batch = batchFor(limit)
        const counter = batch > 0 ? counters.get(key) : undefined
        const live = counter !== undefined && Date.now() < counter.windowEndsAt
        // Events being written count as unwritten until their write answers: without them, an
        // instance could admit a second batch while its first was on its way (a test saw 1011 of 1000
        // admitted by two instances, one more than the bound).
        const unwritten = live ? counter.pending + counter.writing : 0
        if (live && unwritten < batch && counter.known + unwritten < limit) {
          counter.pending++
          return Effect.void
        }
        // The events admitted here so far go with this one; they come back if the write fails.
        const carried = live ? counter.pending : 0
        if (live) {
          counter.pending = 0
          counter.writing += carried
        }
        return write(key, carried + 1, windowSeconds, batch > 0).pipe(
          // A failed write's events come back as pending before they stop counting as writing.
          Effect.tapError(() =>
            Effect.sync(() => {
              if (live) counter.pending += carried
            })
          ),
          Effect.ensuring(
            Effect.sync(() => {
              if (live) counter.writing -= carried
            })
          ),
          Effect.flatMap((row) => {
            if (row.count <= limit) return Effect.void
            countRefusal(limitOf(key))
            return Effect.fail(
              new RateLimited({ retryAfterSeconds: Math.max(1, Math.ceil(row.secondsLeft)) })
            )
          })
        )
      }
    )

    /** Writes every key's unwritten events; forgets windows that are over. */
    const flush = Effect.suspend(() => {
      const now = Date.now()
      const writes: Array<Effect.Effect<unknown>> = []
      for (const [key, counter] of counters) {
        if (now >= counter.windowEndsAt) {
          counters.delete(key)
          continue
        }
        if (counter.pending === 0) continue
        const events = counter.pending
        counter.pending = 0
        counter.writing += events
        writes.push(
          write(key, events, counter.windowSeconds, true).pipe(
            Effect.catchAll(() =>
              Effect.sync(() => {
                counter.pending += events
              })
            ),
            Effect.ensuring(
              Effect.sync(() => {
                counter.writing -= events
              })
            )
          )
        )
      }
      return Effect.all(writes, { concurrency: 4, discard: true })
    })

    // Untraced: a write every slice would bury the requests' traces under root spans of its own.
    yield* Effect.forkScoped(
      Effect.repeat(flush, Schedule.spaced(FLUSH_SLICE)).pipe(Effect.withTracerEnabled(false))
    )
    // Events counted here are written before the instance stops.
    yield* Effect.addFinalizer(() => flush)

    return { consume }
  })
}) {}
