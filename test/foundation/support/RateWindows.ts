// Rate-limit counters use windows aligned on the database's clock (a minute for most limits, an hour
// for new verification links): a test that counts to a limit starts its burst well inside one, or
// the window could turn over half-way through it.
import * as Effect from "effect/Effect"

/** Waits, when a window of `windowMs` has less than 15 s left, until the next one has begun. */
export const awayFromEdgeOf = (windowMs: number) =>
  Effect.promise(async () => {
    const into = Date.now() % windowMs
    if (into > windowMs - 15_000) await new Promise((resolve) => setTimeout(resolve, windowMs + 500 - into))
  })

/** Waits, when the minute is nearly over, until the next one has begun. */
export const awayFromWindowEdge = awayFromEdgeOf(60_000)
