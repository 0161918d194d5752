// `/rpc`: the catalog's RPC group over HTTP with JSON serialization, on the shared router next to
// the REST API. Every other method on the path answers 405 with `Allow: POST` in the envelope.
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import * as RpcSerialization from "@effect/rpc/RpcSerialization"
import * as RpcServer from "@effect/rpc/RpcServer"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { MethodNotAllowed } from "../../http/ApiError.js"
import { errorResponse } from "../../http/ErrorResponse.js"
import { CatalogRateLimitedLive, CatalogRpcHandlersLive, CatalogRpcsServed } from "./CatalogRpcServer.js"

export const rpcPath = "/rpc"

const notPost = errorResponse(
  new MethodNotAllowed({
    message: "The RPC endpoint takes POST requests with JSON-serialized RPC messages.",
    allow: ["POST"]
  })
)

const OtherMethods = HttpLayerRouter.use((router) =>
  Effect.forEach(["GET", "PUT", "PATCH", "DELETE", "OPTIONS"] as const, (method) =>
    router.add(method, rpcPath, Effect.succeed(notPost))
  )
)

export const RpcRoutes = Layer.mergeAll(
  RpcServer.layerHttpRouter({ group: CatalogRpcsServed, path: rpcPath, protocol: "http" }),
  OtherMethods
).pipe(Layer.provide([CatalogRpcHandlersLive, CatalogRateLimitedLive, RpcSerialization.layerJson]))
