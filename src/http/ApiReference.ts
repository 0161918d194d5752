// An API's published description: its OpenAPI document and an interactive reference page (Scalar,
// inlined from the installed @effect/platform, with its web fonts off, so the page asks nothing of
// a CDN: it uses the system fonts). Both are computed once,
// compressed, and served with ETags like every other cached answer.
import * as zlib from "node:zlib"
import type * as HttpApi from "@effect/platform/HttpApi"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiScalar from "@effect/platform/HttpApiScalar"
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { type PreparedResponse, prepareJson, variant } from "./PreparedResponse.js"

export const openApiCacheControl = "public, max-age=3600"

/** The OpenAPI document of `api`, its one server the origin the service answers from. */
export const openApiResponse = <Id extends string, Groups extends HttpApiGroup.HttpApiGroup.Any, E, R>(
  api: HttpApi.HttpApi<Id, Groups, E, R>,
  origin: string
): PreparedResponse =>
  prepareJson(
    JSON.stringify({ ...OpenApi.fromApi(api), servers: [{ url: origin, description: "This service" }] }),
    openApiCacheControl
  )

/**
 * Scalar's settings beyond the ones @effect/platform types (Scalar 1.39 reads them from the same
 * configuration): its toolbar, shown by default when the page is opened on localhost, offers the
 * paid "Generate SDKs" and uploads the document to Scalar's registry to share it; telemetry would
 * report the API client's use to Scalar. None of that belongs on a self-hosted reference.
 */
const scalarConfig: HttpApiScalar.ScalarConfig & {
  readonly showToolbar: "never"
  readonly telemetry: false
} = { hideModels: false, withDefaultFonts: false, showToolbar: "never", telemetry: false }

/**
 * The platform renders the Scalar page as a route of a router; it is rendered once here, on a
 * private router, and kept as bytes. The page is 3.3 MB of mostly JavaScript: compressed, about 1 MB.
 */
export const apiReferenceResponse = (
  api: HttpApi.HttpApi.Any,
  specTitle: string
): Effect.Effect<PreparedResponse> =>
  Effect.scoped(
    Effect.gen(function* () {
      const router = yield* HttpLayerRouter.make
      yield* Layer.buildWithScope(
        HttpApiScalar.layerHttpLayerRouter({
          api,
          path: "/reference",
          scalar: scalarConfig
        }).pipe(Layer.provide(Layer.succeed(HttpLayerRouter.HttpRouter, router))),
        yield* Effect.scope
      )
      const response = yield* router
        .asHttpEffect()
        .pipe(
          Effect.provideService(
            HttpServerRequest.HttpServerRequest,
            HttpServerRequest.fromWeb(new Request("http://reference/reference"))
          )
        )
      if (response.body._tag !== "Uint8Array") {
        return yield* Effect.dieMessage(
          `the ${specTitle} reference page rendered as ${response.body._tag}, not bytes`
        )
      }
      const body = response.body.body
      return {
        contentType: "text/html; charset=utf-8",
        cacheControl: openApiCacheControl,
        variants: {
          identity: variant(body),
          gzip: variant(zlib.gzipSync(body, { level: 9 })),
          br: variant(zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9 } }))
        }
      }
    })
  ).pipe(Effect.orDie)
