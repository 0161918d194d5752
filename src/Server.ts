// The whole service as one layer: both APIs (each can be switched off), the extra catalog surfaces,
// the agent session that joins them (when both are on), and the one HTTP server in front of them.
// This is the only place where features meet.

import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import type * as HttpRouter from "@effect/platform/HttpRouter"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { AgentRoutes } from "./agent/AgentRoutes.js"
import { CatalogServicesLive, layerCatalog } from "./catalog/CatalogRoutes.js"
import { FoundationRoutes, layerFoundationServices } from "./foundation/Foundation.js"
import { ClientAddress } from "./http/ClientAddress.js"
import { layerNodeServer } from "./http/NodeServer.js"
import { ProtectedResources } from "./http/ProtectedResources.js"
import { PageAssetRoutes } from "./http/pages/PageAssets.js"
import {
  type AfterListen,
  type BodyRules,
  type FastPaths,
  layerServerRegistries,
  type ReadinessChecks
} from "./http/ServerRegistries.js"
import { LandingPageRoutes } from "./LandingPage.js"
import { layerLogFormat } from "./observability/LogLines.js"
import { layerTelemetry } from "./observability/Telemetry.js"
import { TelemetryConfig } from "./observability/TelemetryConfig.js"
import { ServerConfig } from "./ServerConfig.js"

/** Routes of every enabled feature, registered on the one router. */
const Routes = Layer.unwrapEffect(
  Effect.map(ServerConfig, (settings) => {
    const routes: Array<
      Layer.Layer<
        never,
        unknown,
        | HttpLayerRouter.HttpRouter
        | FastPaths
        | BodyRules
        | AfterListen
        | ClientAddress
        | ReadinessChecks
        | ProtectedResources
        | HttpRouter.HttpRouter.DefaultServices
      >
    > = []
    // Built once and shared (layers are memoized by reference) by the features that need them.
    const foundationServices = layerFoundationServices(settings.publicOrigin)
    // Foundation: /api/v1 (its database, services and outbox worker come with it).
    if (settings.foundationEnabled) routes.push(FoundationRoutes.pipe(Layer.provide(foundationServices)))
    // Catalog: everything else, from the snapshot in CATALOG_DIR.
    if (settings.catalogEnabled) routes.push(layerCatalog)
    // The agent session (/mcp/agent) joins both, through their services.
    if (settings.foundationEnabled && settings.catalogEnabled) {
      routes.push(AgentRoutes.pipe(Layer.provide(foundationServices), Layer.provide(CatalogServicesLive)))
    }
    // The front door and the pages' stylesheet, whichever features are on.
    const features = { catalog: settings.catalogEnabled, foundation: settings.foundationEnabled }
    return Layer.mergeAll(LandingPageRoutes(features), PageAssetRoutes, ...routes).pipe(
      Layer.provide(ClientAddress.layer(settings.trustProxy))
    )
  })
)

/** The HTTP server with every route; provides the address it listens on. */
export const ServerLive = Layer.unwrapEffect(Effect.map(ServerConfig, layerNodeServer)).pipe(
  Layer.provide(Routes),
  Layer.provide([
    HttpLayerRouter.layer,
    layerServerRegistries,
    // OAuth protected resources live on the public origin: their identifiers are built from it.
    Layer.unwrapEffect(
      Effect.map(ServerConfig, (settings) => ProtectedResources.layer(settings.publicOrigin))
    ),
    NodeHttpServer.layerContext
  ]),
  // Traces and metrics, as the OTEL_* variables and METRICS_PORT ask: built before everything above,
  // so that the tracer it sets is the one every feature and every request uses.
  Layer.provide(
    Layer.unwrapEffect(Effect.map(ServerConfig, (settings) => layerTelemetry(settings.trustProxy)))
  ),
  // Log lines as LOG_FORMAT asks (text by default, or one JSON object per line), from the start.
  Layer.provide(
    Layer.unwrapEffect(Effect.map(TelemetryConfig, (settings) => layerLogFormat(settings.logFormat)))
  ),
  Layer.provide([ServerConfig.layer, TelemetryConfig.layer])
)
