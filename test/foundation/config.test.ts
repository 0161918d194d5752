// Start-up refuses foundation settings it cannot honour, naming the variable.
import { describe, expect, it } from "@effect/vitest"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { testServer } from "../support/TestServer.js"
import { emptyDataDir } from "./support/Backends.js"

const startWith = (env: Record<string, string>) =>
  Effect.gen(function* () {
    const dir = yield* emptyDataDir
    // The failure's cause, or a failed test if the server started.
    return yield* Effect.flip(
      Effect.sandbox(Layer.build(testServer({ CATALOG_ENABLED: "false", DATA_DIR: dir, ...env })))
    )
  }).pipe(Effect.scoped)

describe("foundation settings", () => {
  for (const [name, value] of [
    ["PUBLIC_ORIGIN", "http://example.com/"],
    ["PUBLIC_ORIGIN", "example.com"],
    ["CREDENTIAL_RATE_LIMIT", "0"],
    ["AUTH_RATE_LIMIT", "many"],
    ["SESSION_TTL_DAYS", "-1"],
    ["AUTH_ADDRESS_RATE_LIMIT", "0"],
    ["PASSWORD_HASH_CONCURRENCY", "0"],
    ["PASSWORD_HASH_QUEUE", "-1"],
    ["PASSWORD_HASH_COST", "18"],
    ["EMBEDDED_SHARED_BUFFERS", "lots"],
    ["FOUNDATION_CURSOR_SECRET", "too short to sign with"],
    ["TRUST_PROXY", "perhaps"]
  ] as const) {
    it.live(`${name}=${value} stops start-up with a message naming ${name}`, () =>
      Effect.gen(function* () {
        const cause = yield* startWith({ [name]: value })
        expect(Cause.pretty(cause)).toContain(name)
      })
    )
  }
})
