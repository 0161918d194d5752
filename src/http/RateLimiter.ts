// An in-memory token-bucket rate limiter, one bucket per key (a client address). Memory stays
// bounded: past a size limit the oldest buckets are forgotten, which at worst gives a client a
// fresh budget (lenient, never a wrong refusal).
export type RateDecision =
  | { readonly allowed: true }
  | { readonly allowed: false; readonly retryAfterSeconds: number }

export interface RateLimiter {
  readonly take: (key: string) => RateDecision
}

const allowed: RateDecision = { allowed: true }

export const makeRateLimiter = (options: {
  readonly perMinute: number
  readonly maxKeys?: number
  readonly now?: () => number
}): RateLimiter => {
  const capacity = options.perMinute
  const refillPerMs = options.perMinute / 60_000
  const maxKeys = options.maxKeys ?? 100_000
  const now = options.now ?? Date.now
  const buckets = new Map<string, { tokens: number; at: number }>()
  return {
    take: (key) => {
      const t = now()
      const bucket = buckets.get(key)
      if (bucket === undefined) {
        if (buckets.size >= maxKeys) buckets.delete(buckets.keys().next().value as string)
        buckets.set(key, { tokens: capacity - 1, at: t })
        return allowed
      }
      // Buckets are updated in place: the hot path of a known client writes no map entry.
      const tokens = Math.min(capacity, bucket.tokens + (t - bucket.at) * refillPerMs)
      if (tokens < 1) {
        return {
          allowed: false,
          retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / refillPerMs / 1000))
        }
      }
      bucket.tokens = tokens - 1
      bucket.at = t
      return allowed
    }
  }
}
