// Rate-limit counters use fixed windows aligned on the database's clock (a minute for most limits, an
// hour for new verification links): a test that counts to a limit must make every counted request
// inside one window, or the count restarts half-way through its burst. Rather than wait before each
// burst until the window has time enough left (seconds a burst, whatever the burst needs), a burst
// runs at once, and it is judged afterwards: if the span from just before its first request to just
// after its last answer lies inside one window, its outcome stands, passed or failed; if the span
// crosses an edge, its outcome says nothing and it runs again.
//
// The clock: the window of a count is the one holding the database's `now()` for that statement,
// which PostgreSQL reads from the system's real-time clock (gettimeofday) and PGlite from
// `Date.now()` (its WebAssembly build's CLOCK_REALTIME), so `Date.now()` here reads the same clock,
// and each request's `now()` falls between the marks taken around the burst. The marks are widened by
// a second all the same, which costs nothing but a rare extra run.
import * as Effect from "effect/Effect"

const MINUTE = 60_000
const MARGIN_MS = 1_000
/** A burst that crossed an edge runs again right after it, so a second crossing needs a burst longer than the window. */
const MAX_RUNS = 3

const windowOf = (at: number, windowMs: number) => Math.floor(at / windowMs)

/**
 * Sleeps until the window after the current one has begun, and by twice the margin: a burst started
 * then has its first mark, widened by the margin, inside that window even if the timer fired a little
 * early (at one margin past the edge, a timer a millisecond early made the burst look as if it had
 * crossed, and cost a window's wait).
 */
const untilNextWindow = (windowMs: number) =>
  Effect.promise(
    () => new Promise((resolve) => setTimeout(resolve, windowMs - (Date.now() % windowMs) + 2 * MARGIN_MS))
  )

/** Runs `burst` and says whether the span it took could have met two windows. */
const timed = <A, E, R>(burst: Effect.Effect<A, E, R>, windowMs: number) =>
  Effect.gen(function* () {
    const start = Date.now() - MARGIN_MS
    const exit = yield* Effect.exit(burst)
    const crossed = windowOf(start, windowMs) !== windowOf(Date.now() + MARGIN_MS, windowMs)
    return { exit, crossed }
  })

/**
 * Sleeps, when now is within two margins of a window's edge (before or after it), until two margins
 * past that edge; otherwise not at all. A run started right after a crossing could begin before the
 * edge its marks met (they are widened by a margin each side): a short burst could then be judged
 * crossed three times in a row, the third really straddling the edge, and its outcome stood (CI saw
 * a sign-up past the limit answered 303). After this wait a run's first mark is inside one window.
 */
const clearOfEdge = (windowMs: number) =>
  Effect.promise(() => {
    const edge = windowOf(Date.now() + 2 * MARGIN_MS, windowMs) * windowMs
    const wait = edge + 2 * MARGIN_MS - Date.now()
    return new Promise((resolve) => setTimeout(resolve, Math.max(0, wait)))
  })

/**
 * Runs `burst(run)` until one run lies inside a single window of `windowMs`, and gives that run's
 * outcome. Each run must count under keys of its own (a new account, email, client, connection or
 * forwarded address made from `run` or fresh each time): a run that crossed an edge left counts in
 * the window it ended in, and the next run starts, clear of the edge, in that window.
 */
export const inOneWindow = <A, E, R>(
  burst: (run: number) => Effect.Effect<A, E, R>,
  windowMs: number = MINUTE
): Effect.Effect<A, E, R> =>
  Effect.gen(function* () {
    for (let run = 1; ; run++) {
      const { exit, crossed } = yield* timed(burst(run), windowMs)
      if (!crossed || run === MAX_RUNS) return yield* exit
      yield* clearOfEdge(windowMs)
    }
  })

/**
 * For a burst that cannot count under new keys (the address of the test's own connections, which is
 * always loopback): starts at once unless less than `leadMs` (comfortably more than the burst takes)
 * is left in the window, and should the burst still cross an edge, waits for a window of its own
 * and runs it again. The wait after a crossing is up to a window long: a test using this allows for
 * it in its timeout.
 */
export const inOneWindowSameKeys = <A, E, R>(
  burst: Effect.Effect<A, E, R>,
  leadMs: number,
  windowMs: number = MINUTE
): Effect.Effect<A, E, R> =>
  Effect.gen(function* () {
    if (windowMs - (Date.now() % windowMs) < leadMs) yield* untilNextWindow(windowMs)
    for (let run = 1; ; run++) {
      const { exit, crossed } = yield* timed(burst, windowMs)
      if (!crossed || run === MAX_RUNS) return yield* exit
      yield* untilNextWindow(windowMs)
    }
  })
