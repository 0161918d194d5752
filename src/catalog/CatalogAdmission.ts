// The catalog's one admission point (catalog-extensions §11): every catalog surface (REST on the
// fast path and through the HttpApi, batch, /openapi.json and /docs, RPC, MCP and ask) calls `admit`
// with the client's address and what the request costs, so they all spend one per-client budget.
// `/health` is the exception: load balancers and orchestrators probe it from one address, often,
// and a probe refused with 429 would take a healthy instance out of service.
import type * as Http from "node:http"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import { TooManyRequests } from "../http/ApiError.js"
import { ClientAddress } from "../http/ClientAddress.js"
import { makeRateLimiter } from "../http/RateLimiter.js"
import { countRefusal } from "../observability/ServiceMetrics.js"
import { CatalogConfig } from "./CatalogConfig.js"

export interface CatalogAdmissionService {
  /**
   * Spends `cost` requests (default one) of the client's budget, or answers the 429 to send when
   * the budget runs out on the way (what was spent before that stays spent).
   */
  readonly admit: (client: string, cost?: number) => Either.Either<void, TooManyRequests>
  /** `admit` for the request being handled, by its client's address (probes are always admitted). */
  readonly admitRequest: (
    cost?: number
  ) => Effect.Effect<void, TooManyRequests, HttpServerRequest.HttpServerRequest>
  /** `admitRequest` for a plain node request (the fast path). */
  readonly admitNode: (request: Http.IncomingMessage) => Either.Either<void, TooManyRequests>
  /**
   * Spends one request of a plain node request's budget when there is one, and says so; when there
   * is none it spends and counts nothing, for a fast path that leaves the refusal to the router
   * (which is refused in turn: a refused request takes nothing from the budget).
   */
  readonly admitsNode: (request: Http.IncomingMessage) => boolean
  /** The client of a plain node request (the fast path), by the same rule as the router's. */
  readonly nodeClient: (request: Http.IncomingMessage) => string
  /** The client of a platform request. */
  readonly client: (request: HttpServerRequest.HttpServerRequest) => string
  /** The budget: requests a minute per client address. */
  readonly perMinute: number
}

/** Paths that spend nothing of the budget: the health probe. */
export const unmeteredPaths: ReadonlySet<string> = new Set(["/health"])

const isUnmetered = (url: string) => {
  const q = url.indexOf("?")
  return unmeteredPaths.has(q === -1 ? url : url.slice(0, q))
}

export class CatalogAdmission extends Context.Tag("CatalogAdmission")<
  CatalogAdmission,
  CatalogAdmissionService
>() {
  static readonly layer = Layer.effect(
    CatalogAdmission,
    Effect.map(Effect.all([CatalogConfig, ClientAddress]), ([config, addresses]): CatalogAdmissionService => {
      const limiter = makeRateLimiter({ perMinute: config.rateLimitPerMinute })
      const refused = (retryAfterSeconds: number) => {
        countRefusal("catalog")
        return Either.left(
          new TooManyRequests({
            message: `More than ${config.rateLimitPerMinute} requests a minute from your address; wait ${retryAfterSeconds} s.`,
            retryAfterSeconds
          })
        )
      }
      const admit = (client: string, cost = 1): Either.Either<void, TooManyRequests> => {
        for (let i = 0; i < cost; i++) {
          const decision = limiter.take(client)
          if (!decision.allowed) return refused(decision.retryAfterSeconds)
        }
        return Either.void
      }
      const client = addresses.of
      const nodeClient = addresses.ofNode
      return {
        admit,
        admitRequest: (cost) =>
          Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
            isUnmetered(request.url) ? Either.void : admit(client(request), cost)
          ),
        admitNode: (request) => (isUnmetered(request.url ?? "/") ? Either.void : admit(nodeClient(request))),
        admitsNode: (request) => isUnmetered(request.url ?? "/") || limiter.take(nodeClient(request)).allowed,
        nodeClient,
        client,
        perMinute: config.rateLimitPerMinute
      }
    })
  )
}
