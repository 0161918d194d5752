// Fixed-window request counters kept in PostgreSQL, so that every instance of the service counts
// against the same limits. One upsert per check; `Housekeeping` sweeps windows that are over.
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { repositoryCall } from "../Database/DatabaseEdge.js"
import { RateLimited } from "../Domain/Errors.js"

const CounterRow = Schema.Struct({ count: Schema.Int, secondsLeft: Schema.Number })

export class RateLimiter extends Effect.Service<RateLimiter>()("RateLimiter", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const count = SqlSchema.single({
      Request: Schema.Struct({ key: Schema.String, windowSeconds: Schema.Int }),
      Result: CounterRow,
      execute: ({ key, windowSeconds }) => sql`
        INSERT INTO rate_limit_counters AS c (key, window_start, count)
        VALUES (${key}, to_timestamp(floor(extract(epoch FROM now()) / ${windowSeconds}::int) * ${windowSeconds}::int), 1)
        ON CONFLICT (key) DO UPDATE SET
          count = CASE WHEN c.window_start = EXCLUDED.window_start THEN c.count + 1 ELSE 1 END,
          window_start = EXCLUDED.window_start
        RETURNING count,
          extract(epoch FROM (window_start + make_interval(secs => ${windowSeconds}::int) - now()))::float8
            AS seconds_left`
    })

    /**
     * Counts one event under `key` and fails with 429 once more than `limit` happened in the
     * current window of `windowSeconds` (windows are aligned on the clock of the database, which
     * all instances share).
     */
    const consume = repositoryCall(
      "RateLimiter.consume",
      (key: string, limit: number, windowSeconds: number = 60) =>
        count({ key, windowSeconds }).pipe(
          // An upsert always returns its row.
          Effect.catchTag("NoSuchElementException", (error) => Effect.die(error)),
          Effect.flatMap((row) =>
            row.count <= limit
              ? Effect.void
              : Effect.fail(new RateLimited({ retryAfterSeconds: Math.max(1, Math.ceil(row.secondsLeft)) }))
          )
        )
    )

    return { consume }
  })
}) {}
