// The catalog feature as one layer: its services (snapshot, search, rate limit, operations), the
// REST API mounted at `/`, the OpenAPI document and reference page, and the fast path for hot
// reads. src/Server.ts adds it when the catalog is enabled.
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { type ApiApp, layerApiApp, mountApiApp } from "../http/ApiApp.js"
import type { ApiError } from "../http/ApiError.js"
import { apiReferenceResponse, openApiResponse } from "../http/ApiReference.js"
import { errorResponse } from "../http/ErrorResponse.js"
import { AfterListen, FastPaths } from "../http/NodeServer.js"
import { respondPrepared } from "../http/PreparedHttp.js"
import { AskLive } from "./ask/Ask.js"
import { Catalog, CatalogLive } from "./Catalog.js"
import { CatalogConfig } from "./CatalogConfig.js"
import { CatalogRateLimit } from "./CatalogRateLimit.js"
import { CatalogReadsLive } from "./CatalogReads.js"
import { CatalogApi } from "./http/CatalogApi.js"
import { makeCatalogFastPath } from "./http/CatalogFastPath.js"
import { CatalogHandlersLive } from "./http/CatalogHandlers.js"
import { CatalogOperations, CatalogOperationsLive } from "./http/CatalogOperations.js"
import { spendRequests } from "./http/RateLimited.js"
import { McpRoutes } from "./mcp/McpRoutes.js"
import { RpcRoutes } from "./rpc/RpcRoutes.js"
import { SearchLive } from "./Search.js"

class CatalogApiApp extends Context.Tag("CatalogApiApp")<CatalogApiApp, ApiApp>() {}

/** Everything the catalog's surfaces answer from, loaded once. */
export const CatalogServicesLive = Layer.mergeAll(CatalogOperationsLive, CatalogReadsLive, AskLive).pipe(
  Layer.provideMerge(SearchLive),
  Layer.provideMerge(CatalogLive),
  Layer.provideMerge(CatalogRateLimit.layer),
  Layer.provideMerge(CatalogConfig.layer)
)

const openApi = openApiResponse(CatalogApi)

/** /openapi.json and the /docs reference page: outside the API, so they are not part of its own document. */
const DescriptionRoutes = HttpLayerRouter.use((router) =>
  Effect.gen(function* () {
    const limit = yield* CatalogRateLimit
    // The page is large to render; the first visitor pays for it, everyone after gets the cached bytes.
    const reference = yield* Effect.cached(apiReferenceResponse(CatalogApi, "Podcast catalog"))
    // Outside the API's middleware, so contract errors are rendered here.
    const limited = <R>(effect: Effect.Effect<HttpServerResponse.HttpServerResponse, ApiError, R>) =>
      Effect.zipRight(spendRequests(1).pipe(Effect.provideService(CatalogRateLimit, limit)), effect).pipe(
        Effect.catchAll((error) => Effect.succeed(errorResponse(error)))
      )
    yield* router.add("GET", "/openapi.json", limited(respondPrepared(openApi)))
    yield* router.add("GET", "/docs", limited(Effect.flatMap(reference, respondPrepared)))
  })
)

const FastPath = Layer.effectDiscard(
  Effect.gen(function* () {
    if (!(yield* CatalogConfig).fastPath) return
    const paths = yield* FastPaths
    const catalog = yield* Catalog
    const operations = yield* CatalogOperations
    const sources = {
      episode: catalog.episodeResponse,
      transcript: catalog.transcriptResponse,
      file: catalog.fileResponse,
      fixed: new Map([
        ["/v1/snapshot", operations.manifest],
        ["/health", operations.health],
        ["/openapi.json", openApi]
      ]),
      queries: operations.queries
    }
    paths.add(makeCatalogFastPath(sources, yield* CatalogRateLimit))
  })
)

/** Once the server listens, the snapshot's search data is warmed in the background. */
const WarmUp = Layer.effectDiscard(
  Effect.gen(function* () {
    const catalog = yield* Catalog
    ;(yield* AfterListen).add(catalog.warmUp)
  })
)

/** Every catalog route, with the catalog's services. */
export const layerCatalog = Layer.mergeAll(
  mountApiApp(CatalogApiApp, "/*"),
  DescriptionRoutes,
  FastPath,
  WarmUp,
  McpRoutes,
  RpcRoutes
).pipe(
  Layer.provide(layerApiApp(CatalogApiApp, CatalogApi, CatalogHandlersLive)),
  Layer.provide(CatalogServicesLive)
)
