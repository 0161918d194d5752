// `/rpc`: the catalog's RPC group over HTTP with JSON serialization, on the shared router next to
// the REST API. The messages' envelope is checked before RpcServer reads them (RpcEnvelope.ts).
// Every other method on the path answers 405 with `Allow: POST` in the envelope.
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as RpcSerialization from "@effect/rpc/RpcSerialization"
import * as RpcServer from "@effect/rpc/RpcServer"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { MethodNotAllowed } from "../../http/ApiError.js"
import { errorResponse } from "../../http/ErrorResponse.js"
import { FastPaths } from "../../http/ServerRegistries.js"
import { CatalogAdmission } from "../CatalogAdmission.js"
import { CatalogConfig } from "../CatalogConfig.js"
import { CatalogRateLimitedLive, CatalogRpcHandlersLive, CatalogRpcsServed } from "./CatalogRpcServer.js"
import { envelopeProblem, envelopeRefusal } from "./RpcEnvelope.js"
import { answerOfResponse, makeRpcFastPath, makeRpcMemo } from "./RpcFastPath.js"

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

const parsed = (text: string): { readonly ok: true; readonly body: unknown } | { readonly ok: false } => {
  try {
    return { ok: true, body: JSON.parse(text) }
  } catch {
    return { ok: false }
  }
}

/**
 * RpcServer's HTTP protocol on POST /rpc, behind the envelope check. The body read here is the one
 * RpcServer reads (the platform keeps it); a body that is not JSON is left to RpcServer, which
 * answers it with a Defect message. RpcServer's answers to lookups are kept for the fast path to
 * answer again (RpcFastPath.ts), unless the fast path is off (CATALOG_FAST_PATH=false).
 */
const GuardedProtocol = Layer.effect(
  RpcServer.Protocol,
  Effect.gen(function* () {
    const router = yield* HttpLayerRouter.HttpRouter
    const { httpApp, protocol } = yield* RpcServer.makeProtocolWithHttpApp
    const memo = (yield* CatalogConfig).fastPath ? makeRpcMemo() : undefined
    if (memo !== undefined) (yield* FastPaths).add(makeRpcFastPath(rpcPath, memo, yield* CatalogAdmission))
    yield* router.add(
      "POST",
      rpcPath,
      Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
        // A body that cannot be read at all fails the same way inside RpcServer.
        Effect.flatMap(Effect.option(request.text), (text) => {
          const body = text._tag === "Some" ? parsed(text.value) : { ok: false as const }
          const problem = body.ok ? envelopeProblem(body.body) : undefined
          if (problem !== undefined) return Effect.succeed(envelopeRefusal(problem))
          const key = body.ok ? memo?.keyOf(request.headers, body.body) : undefined
          if (key === undefined) return httpApp
          return Effect.tap(httpApp, (response) => {
            const answer = answerOfResponse(response)
            if (answer !== undefined) memo?.keep(key, answer)
          })
        })
      )
    )
    return protocol
  })
)

export const RpcRoutes = Layer.mergeAll(RpcServer.layer(CatalogRpcsServed), OtherMethods).pipe(
  Layer.provide(GuardedProtocol),
  Layer.provide([CatalogRpcHandlersLive, CatalogRateLimitedLive, RpcSerialization.layerJson])
)
