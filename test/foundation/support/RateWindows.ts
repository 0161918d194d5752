// Rate-limit counters use one-minute windows aligned on the database's clock: a test that counts to
// a limit starts its burst well inside one, or the window could turn over half-way through it.
import * as Effect from "effect/Effect"

/** Waits, when the minute is nearly over, until the next one has begun. */
export const awayFromWindowEdge = Effect.promise(async () => {
  const intoMinute = Date.now() % 60_000
  if (intoMinute > 45_000) await new Promise((resolve) => setTimeout(resolve, 60_500 - intoMinute))
})
