// The in-memory token bucket: a full budget, refusal with the seconds to wait, steady refill, and a
// bounded number of remembered clients.
import { describe, expect, it } from "@effect/vitest"
import { makeRateLimiter } from "../../src/http/RateLimiter.js"

describe("the rate limiter", () => {
  it("allows the budget, then refuses with Retry-After until a token refills", () => {
    let clock = 0
    const limiter = makeRateLimiter({ perMinute: 3, now: () => clock })
    expect([1, 2, 3].map(() => limiter.take("a").allowed)).toEqual([true, true, true])
    expect(limiter.take("a")).toEqual({ allowed: false, retryAfterSeconds: 20 })
    expect(limiter.take("b").allowed).toBe(true)
    clock += 19_000
    expect(limiter.take("a")).toEqual({ allowed: false, retryAfterSeconds: 1 })
    clock += 1_000
    expect(limiter.take("a").allowed).toBe(true)
    expect(limiter.take("a").allowed).toBe(false)
  })

  it("never holds more than a full budget however long a client was idle", () => {
    let clock = 0
    const limiter = makeRateLimiter({ perMinute: 2, now: () => clock })
    limiter.take("a")
    clock += 3_600_000
    expect([1, 2, 3].map(() => limiter.take("a").allowed)).toEqual([true, true, false])
  })

  it("forgets the oldest clients past its size limit", () => {
    const limiter = makeRateLimiter({ perMinute: 1, maxKeys: 2, now: () => 0 })
    limiter.take("a")
    limiter.take("b")
    expect(limiter.take("a").allowed).toBe(false)
    limiter.take("c")
    // "a" was the oldest and is forgotten: it starts again with a full budget.
    expect(limiter.take("a").allowed).toBe(true)
  })
})
