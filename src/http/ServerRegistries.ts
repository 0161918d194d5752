// Where features hook into the one server without importing it: the fast paths it tries before the
// router, the body limits of their routes, and the work it starts once it listens. Features add to
// these while their layers are built; the server reads them when it is built, after every feature.
import type * as Http from "node:http"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { ApiError } from "./ApiError.js"
import type { ErrorAnswer } from "./ErrorAnswer.js"

/** Answers a request synchronously and returns true, or returns false to let the router answer. */
export type FastHandler = (request: Http.IncomingMessage, response: Http.ServerResponse) => boolean

/** Where features register their fast paths; they run in registration order. */
export class FastPaths extends Context.Tag("FastPaths")<
  FastPaths,
  { readonly add: (handler: FastHandler) => void; readonly all: () => ReadonlyArray<FastHandler> }
>() {
  static readonly layer = Layer.sync(FastPaths, () => {
    const handlers: Array<FastHandler> = []
    return { add: (handler) => handlers.push(handler), all: () => handlers }
  })

  static readonly register = (handler: FastHandler) =>
    Layer.effectDiscard(Effect.map(FastPaths, (paths) => paths.add(handler)))
}

/**
 * A route whose bodies have rules of their own: a limit lower than the server's (e.g. a batch), the
 * media types it reads when not JSON (OAuth's form posts), and how it answers the edge's refusals
 * when not in the envelope (OAuth's error format).
 */
export interface RouteBodyLimit {
  readonly method: string
  readonly path: `/${string}`
  readonly maxBytes?: number
  /** Media types (lowercase, without parameters) the route reads; JSON when not given. */
  readonly mediaTypes?: ReadonlyArray<string>
  /** The answer for a refusal of the edge (400, 413), when the route does not answer the envelope. */
  readonly refusal?: (error: ApiError) => ErrorAnswer
}

/** Where features declare their routes' own body rules (mounted HttpApis declare their limits). */
export class BodyLimits extends Context.Tag("BodyLimits")<
  BodyLimits,
  {
    readonly add: (limits: Iterable<RouteBodyLimit>) => void
    readonly all: () => ReadonlyArray<RouteBodyLimit>
  }
>() {
  static readonly layer = Layer.sync(BodyLimits, () => {
    const limits: Array<RouteBodyLimit> = []
    return { add: (more) => limits.push(...more), all: () => limits }
  })
}

/**
 * Work that should not delay start-up but should happen soon after (warming caches): features
 * register it here and the server runs it in the background once it listens.
 */
export class AfterListen extends Context.Tag("AfterListen")<
  AfterListen,
  {
    readonly add: (task: Effect.Effect<void>) => void
    readonly all: () => ReadonlyArray<Effect.Effect<void>>
  }
>() {
  static readonly layer = Layer.sync(AfterListen, () => {
    const tasks: Array<Effect.Effect<void>> = []
    return { add: (task) => tasks.push(task), all: () => tasks }
  })
}
