// Turns one HttpApi and its handler layers into a self-contained HttpApp whose every failure is
// rendered as the error envelope, and mounts it on the server's router with the body rules its
// endpoints declare. Each API gets its own router and middleware instances, so two APIs can live in
// one process without their routes mixing.
import type * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import type * as HttpApp from "@effect/platform/HttpApp"
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Tracer from "effect/Tracer"
import { bodyRulesOf } from "./BodyPolicy.js"
import { causeResponse } from "./ErrorResponse.js"
import { apiRoutes, makeRouteTable, type RouteTable } from "./RouteTable.js"
import { BodyRules, type RouteBodyRule } from "./ServerRegistries.js"

export interface ApiApp {
  readonly app: HttpApp.Default<never, HttpRouter.HttpRouter.DefaultServices>
  readonly routes: RouteTable
  /** The body rules its endpoints declare (`MaxBodyBytes`, `BodyMediaTypes`), for the server's edge. */
  readonly bodyRules: ReadonlyArray<RouteBodyRule>
}

export interface ApiAppOptions {
  /**
   * The longest path parameter the router matches (find-my-way's default is 100 characters; a
   * longer one is a routing miss, 404). An API whose identifiers may be longer raises it, so that
   * its own schemas judge them (400 beyond their bound) and the route table still answers 405.
   */
  readonly maxParamLength?: number
}

/**
 * A layer providing `tag` with the HttpApp of `api`, built from `handlers` (the layers of its
 * groups and of its middleware). The envelope renderer is installed as the API's innermost
 * middleware: it sees raw failures before the framework would encode them with its own shapes
 * (decode errors, empty 404 and 500 bodies).
 *
 * The platform's router and middleware layers are memoised by reference, so two APIs built in one
 * layer graph would share one router and serve each other's routes. Each API is therefore built
 * with its own memo map; everything else it needs still comes from the surrounding context.
 */
export const layerApiApp = <
  Self,
  Id extends string,
  Groups extends HttpApiGroup.HttpApiGroup.Any,
  E,
  R,
  HE,
  HR
>(
  tag: Context.Tag<Self, ApiApp>,
  api: HttpApi.HttpApi<Id, Groups, E, R>,
  handlers: Layer.Layer<HttpApiGroup.HttpApiGroup.ToService<Id, Groups> | R, HE, HR>,
  options: ApiAppOptions = {}
) => {
  const routerConfig = options.maxParamLength === undefined ? {} : { maxParamLength: options.maxParamLength }
  const routes = makeRouteTable(apiRoutes(api), routerConfig)
  const bodyRules = bodyRulesOf(api)
  const renderErrors = Layer.effectDiscard(
    Effect.flatMap(HttpApiBuilder.Middleware, (middleware) =>
      middleware.add((app) => Effect.catchAllCause(app, (cause) => causeResponse(cause, routes)))
    )
  )
  const appLayer = Layer.effect(
    tag,
    Effect.map(HttpApiBuilder.httpApp, (app) => ({
      app,
      routes,
      bodyRules
    })).pipe(HttpRouter.withRouterConfig(routerConfig))
  ).pipe(
    Layer.provide(renderErrors),
    Layer.provide(HttpApiBuilder.api(api)),
    Layer.provide(handlers),
    Layer.provide([HttpApiBuilder.Router.Live, HttpApiBuilder.Middleware.layer])
  )
  return Layer.scoped(
    tag,
    Effect.gen(function* () {
      const memoMap = yield* Layer.makeMemoMap
      const context = yield* Layer.buildWithMemoMap(appLayer, memoMap, yield* Effect.scope)
      return Context.get(context, tag)
    })
  )
}

/**
 * A mount point is no route of its own: the router reports `path` (`/*`) as the request's route, and
 * the API's own router then reports the endpoint it matched, or nothing when none did. Cleared here,
 * a request no endpoint matched has no route in its span and its measures, rather than the mount's.
 */
const mounted = <A, E, R>(app: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.withFiberRuntime((fiber) => {
    const span = Context.getOption(fiber.currentContext, Tracer.ParentSpan)
    if (Option.isSome(span) && span.value._tag === "Span") span.value.attribute("http.route", undefined)
    return app
  })

/**
 * Routes every method under `path` (a find-my-way pattern such as `/api/v1/*`) to the API's app,
 * and gives the server's edge the body rules of its endpoints. The platform services the app
 * expects (file system, path, ETag generator) are taken from the context once, here, so the router
 * itself needs nothing per request.
 */
export const mountApiApp = <Self>(tag: Context.Tag<Self, ApiApp>, path: `/${string}`) =>
  HttpLayerRouter.use((router) =>
    Effect.gen(function* () {
      const { app, bodyRules } = yield* tag
      const services = yield* Effect.context<HttpRouter.HttpRouter.DefaultServices>()
      ;(yield* BodyRules).add(bodyRules)
      yield* router.add("*", path, Effect.provide(mounted(app), services))
    })
  )
