// An in-memory token-bucket rate limiter, one bucket per key (a client address). Memory stays
// bounded: full buckets carry no information and are forgotten, oldest first, past a size limit.
export type RateDecision =
  | { readonly allowed: true }
  | { readonly allowed: false; readonly retryAfterSeconds: number }

export interface RateLimiter {
  readonly take: (key: string) => RateDecision
}

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
      const tokens =
        bucket === undefined ? capacity : Math.min(capacity, bucket.tokens + (t - bucket.at) * refillPerMs)
      if (tokens < 1) {
        return {
          allowed: false,
          retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / refillPerMs / 1000))
        }
      }
      if (bucket === undefined && buckets.size >= maxKeys) {
        // The oldest entries are the likeliest to have refilled completely.
        buckets.delete(buckets.keys().next().value as string)
      }
      // Re-inserting moves the key to the end, so eviction takes the least recently seen.
      buckets.delete(key)
      buckets.set(key, { tokens: tokens - 1, at: t })
      return { allowed: true }
    }
  }
}
