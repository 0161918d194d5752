// Named spans (as `Effect.fn(name)` makes) for the foundation's services and repositories, opened only inside a trace. With
// HTTP_TRACING on, each request has a span and every traced call made while answering it becomes a
// child span (`Organizations.update` › `OrganizationRepo.update` › the SQL). With it off there is no
// parent span and the call runs untraced: a span costs ≈ 6–9 µs of CPU even when nothing records
// it (Effect 3.22 on this machine), which over the half-dozen calls of a request would be ≈ 8% of
// a foundation request's CPU; the check that replaces it costs ≈ 0.2 µs.
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Tracer from "effect/Tracer"

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
      Context.getOption(fiber.currentContext, Tracer.ParentSpan)._tag === "Some"
        ? Effect.withSpan(body(...args), name, spanOptions)
        : body(...args)
    )

const spanOptions = { captureStackTrace: false } as const
