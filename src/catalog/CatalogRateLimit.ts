// The catalog's per-client-address rate limit (catalog-extensions §11), one budget shared by every
// catalog surface: REST (fast path included), batch, RPC, MCP and ask.
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { TooManyRequests } from "../http/ApiError.js"
import { makeRateLimiter, type RateDecision } from "../http/RateLimiter.js"
import { CatalogConfig } from "./CatalogConfig.js"

export interface CatalogRateLimitService {
  /** Spends `cost` requests of the address's budget (a batch costs one per request it holds). */
  readonly take: (address: string, cost?: number) => RateDecision
  readonly trustProxy: boolean
  readonly perMinute: number
}

export class CatalogRateLimit extends Context.Tag("CatalogRateLimit")<
  CatalogRateLimit,
  CatalogRateLimitService
>() {
  static readonly layer = Layer.effect(
    CatalogRateLimit,
    Effect.map(CatalogConfig, (config) => {
      const limiter = makeRateLimiter({ perMinute: config.rateLimitPerMinute })
      return {
        take: (address, cost = 1) => {
          let decision: RateDecision = { allowed: true }
          for (let i = 0; i < cost && decision.allowed; i++) decision = limiter.take(address)
          return decision
        },
        trustProxy: config.trustProxy,
        perMinute: config.rateLimitPerMinute
      }
    })
  )
}

/** The 429 of the catalog's limit. */
export const rateLimitExceeded = (perMinute: number, retryAfterSeconds: number) =>
  new TooManyRequests({
    message: `More than ${perMinute} requests a minute from your address; wait ${retryAfterSeconds} s.`,
    retryAfterSeconds
  })
