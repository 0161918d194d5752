// The catalog feature as one layer: its services (snapshot, search, admission, operations and the
// route table), the REST API mounted at `/`, the OpenAPI document and reference page, MCP, RPC, and
// the fast path for reads. src/Server.ts adds it when the catalog is enabled.
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { type ApiApp, layerApiApp, mountApiApp } from "../http/ApiApp.js"
import { AfterListen, FastPaths, ReadinessChecks } from "../http/ServerRegistries.js"
import {
  catalogSnapshotAge,
  catalogSnapshotInfo,
  labels,
  observeMetrics
} from "../observability/ServiceMetrics.js"
import { AskLive } from "./ask/Ask.js"
import { Catalog, CatalogLive } from "./Catalog.js"
import { CatalogAdmission } from "./CatalogAdmission.js"
import { CatalogConfig } from "./CatalogConfig.js"
import { CatalogReadsLive } from "./CatalogReads.js"
import { CatalogApi } from "./http/CatalogApi.js"
import { DescriptionRoutes } from "./http/CatalogDescriptions.js"
import { makeCatalogFastPath } from "./http/CatalogFastPath.js"
import { CatalogHandlersLive } from "./http/CatalogHandlers.js"
import { CatalogOperationsLive } from "./http/CatalogOperations.js"
import { CatalogRouteTable, CatalogRouteTableLive } from "./http/CatalogRouteTable.js"
import { McpRoutes } from "./mcp/McpRoutes.js"
import { RpcRoutes } from "./rpc/RpcRoutes.js"
import { SearchLive } from "./Search.js"

class CatalogApiApp extends Context.Tag("CatalogApiApp")<CatalogApiApp, ApiApp>() {}

/** Everything the catalog's surfaces answer from, loaded once. */
export const CatalogServicesLive = Layer.mergeAll(CatalogRouteTableLive, CatalogReadsLive, AskLive).pipe(
  Layer.provideMerge(CatalogOperationsLive),
  Layer.provideMerge(SearchLive),
  Layer.provideMerge(CatalogLive),
  Layer.provideMerge(CatalogAdmission.layer),
  Layer.provideMerge(CatalogConfig.layer)
)

/** The reads of the route table answered in front of the router (unless CATALOG_FAST_PATH is off). */
const FastPath = Layer.effectDiscard(
  Effect.gen(function* () {
    if (!(yield* CatalogConfig).fastPath) return
    ;(yield* FastPaths).add(makeCatalogFastPath(yield* CatalogRouteTable, yield* CatalogAdmission))
  })
)

/** Once the server listens, the snapshot's search data is warmed in the background. */
const WarmUp = Layer.effectDiscard(
  Effect.gen(function* () {
    const catalog = yield* Catalog
    ;(yield* AfterListen).add(catalog.warmUp)
  })
)

/**
 * Readiness (`/readyz`): the catalog serves only once its snapshot is loaded and verified (its layer
 * fails otherwise), so the check holds from the first request on; it names the snapshot served.
 */
const SnapshotReadiness = Layer.effectDiscard(
  Effect.gen(function* () {
    const catalog = yield* Catalog
    ;(yield* ReadinessChecks).add({
      name: "snapshot",
      check: catalog.manifest.id === "" ? Effect.fail("no snapshot is loaded") : Effect.void
    })
  })
)

/** The snapshot served (its id as an attribute) and its age since it was built, in the metrics. */
const SnapshotMetrics = Layer.scopedDiscard(
  Effect.gen(function* () {
    const { manifest } = yield* Catalog
    const served = labels({ "catalog.snapshot.id": manifest.id })
    const builtAt = Date.parse(manifest.builtAt)
    yield* observeMetrics(
      Effect.sync(() => {
        catalogSnapshotInfo.unsafeUpdate(1, served)
        if (Number.isFinite(builtAt))
          catalogSnapshotAge.unsafeUpdate(Math.max(0, (Date.now() - builtAt) / 1000), [])
      })
    )
  })
)

/** Every catalog route, with the catalog's services. */
export const layerCatalog = Layer.mergeAll(
  mountApiApp(CatalogApiApp, "/*"),
  DescriptionRoutes,
  FastPath,
  WarmUp,
  SnapshotReadiness,
  SnapshotMetrics,
  McpRoutes,
  RpcRoutes
).pipe(
  Layer.provide(layerApiApp(CatalogApiApp, CatalogApi, CatalogHandlersLive)),
  Layer.provide(CatalogServicesLive)
)
