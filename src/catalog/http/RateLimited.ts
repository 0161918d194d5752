// The rate limit as HttpApi middleware: every endpoint of the catalog API spends one request of the
// caller's per-minute budget (a batch spends one more per request it carries, in its handler).
import * as HttpApiMiddleware from "@effect/platform/HttpApiMiddleware"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { errorDoc, TooManyRequests } from "../../http/ApiError.js"
import { clientAddress } from "../../http/ClientAddress.js"
import { CatalogRateLimit, rateLimitExceeded } from "../CatalogRateLimit.js"

export class RateLimited extends HttpApiMiddleware.Tag<RateLimited>()("RateLimited", {
  failure: errorDoc(TooManyRequests)
}) {}

/** Spends `cost` of the caller's budget, or fails with 429 and the seconds to wait. */
export const spendRequests = (cost: number) =>
  Effect.gen(function* () {
    const limit = yield* CatalogRateLimit
    const request = yield* HttpServerRequest.HttpServerRequest
    const decision = limit.take(clientAddress(request, limit.trustProxy), cost)
    if (!decision.allowed) {
      return yield* rateLimitExceeded(limit.perMinute, decision.retryAfterSeconds)
    }
  })

export const RateLimitedLive = Layer.effect(
  RateLimited,
  Effect.map(CatalogRateLimit, (limit) =>
    spendRequests(1).pipe(Effect.provideService(CatalogRateLimit, limit))
  )
)
