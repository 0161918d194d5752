// Named spans (as `Effect.fn(name)` makes) for the foundation's services and repositories, made only
// while the tracer is on. With traces exported, each request has a span and every traced call made
// while answering it becomes a child span (`Organizations.update` › `OrganizationRepo.update` › the
// SQL). Without, every request runs with the tracer off (`src/http/NodeServer.ts`) and a
// traced call runs as it is: a span costs ≈ 5–10 µs of CPU even when nothing records it (Effect 3.22
// on this machine), which over the half-dozen calls of a request would be ≈ 8% of a foundation
// request's CPU; the check that replaces it costs ≈ 0.2 µs.
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"

const spanOptions = { captureStackTrace: false } as const

/**
 * `body` as a traced function named `name`. The span records no stack trace: captured here, it
 * would show this module rather than the caller, and the span's name already says which call it is.
 */
export const traced =
  <Args extends ReadonlyArray<unknown>, A, E, R>(
    name: string,
    body: (...args: Args) => Effect.Effect<A, E, R>
  ): ((...args: Args) => Effect.Effect<A, E, R>) =>
  (...args) =>
    Effect.withFiberRuntime((fiber) =>
      fiber.getFiberRef(FiberRef.currentTracerEnabled)
        ? Effect.withSpan(body(...args), name, spanOptions)
        : body(...args)
    )
