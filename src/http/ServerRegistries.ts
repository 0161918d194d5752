// Where features hook into the one server without importing it: the fast paths it tries before the
// router, the body rules of their routes, the work it starts once it listens, and what must hold for
// it to be ready. Features add to these while their layers are built; the server reads them when it
// is built, after every feature.
import type * as Http from "node:http"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { ApiError } from "./ApiError.js"
import type { BodyMediaType } from "./BodyMediaType.js"
import type { ErrorAnswer } from "./ErrorAnswer.js"

/**
 * Answers a request and returns the route it answered by, as a template (`/v1/episodes/{slug}`, for
 * traces and metrics), or returns false to let the router answer.
 */
export type FastHandler = (request: Http.IncomingMessage, response: Http.ServerResponse) => string | false

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
 * A route whose bodies follow rules of their own: a limit lower than the server's (e.g. a batch's),
 * media types besides JSON (e.g. a form's), or its own answer to the edge's refusals (OAuth's error
 * format). What a rule leaves out is the server's default.
 */
export interface RouteBodyRule {
  readonly method: string
  readonly path: `/${string}`
  readonly maxBytes?: number
  readonly mediaTypes?: ReadonlyArray<BodyMediaType>
  /** The answer for a refusal of the edge (400, 413), when the route does not answer the envelope. */
  readonly refusal?: (error: ApiError) => ErrorAnswer
}

/** Where features declare their routes' own body rules (mounted HttpApis declare theirs). */
export class BodyRules extends Context.Tag("BodyRules")<
  BodyRules,
  {
    readonly add: (rules: Iterable<RouteBodyRule>) => void
    readonly all: () => ReadonlyArray<RouteBodyRule>
  }
>() {
  static readonly layer = Layer.sync(BodyRules, () => {
    const rules: Array<RouteBodyRule> = []
    return { add: (more) => rules.push(...more), all: () => rules }
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

/** One thing that must hold for the service to take traffic: fails with a short reason when not. */
export interface ReadinessCheck {
  readonly name: string
  readonly check: Effect.Effect<void, string>
}

/** Where features declare what `/readyz` checks (the database answers, a snapshot is loaded). */
export class ReadinessChecks extends Context.Tag("ReadinessChecks")<
  ReadinessChecks,
  {
    readonly add: (check: ReadinessCheck) => void
    readonly all: () => ReadonlyArray<ReadinessCheck>
  }
>() {
  static readonly layer = Layer.sync(ReadinessChecks, () => {
    const checks: Array<ReadinessCheck> = []
    return { add: (check) => checks.push(check), all: () => checks }
  })

  static readonly register = (check: ReadinessCheck) =>
    Layer.effectDiscard(Effect.map(ReadinessChecks, (checks) => checks.add(check)))
}

/** Every registry, empty, for a server to be built on. */
export const layerServerRegistries = Layer.mergeAll(
  FastPaths.layer,
  BodyRules.layer,
  AfterListen.layer,
  ReadinessChecks.layer
)
