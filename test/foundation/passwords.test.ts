// Password hashing and its cost setting: scrypt at N = 2^15 unless PASSWORD_HASH_COST says otherwise,
// the cost written into each hash so that a hash made at one cost still verifies under another, the
// decoy that unknown emails are checked against at the cost new hashes get, and a cost out of range
// refused at start. (Test servers run at 2^10, test/support/TestServer.ts: this file holds the default.)
import { describe, expect, it } from "@effect/vitest"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import { FoundationConfig } from "../../src/foundation/FoundationConfig.js"
import { Passwords } from "../../src/foundation/Security/Passwords.js"

const passwordsWith = (env: Record<string, string>) =>
  Passwords.Default.pipe(
    Layer.provide(FoundationConfig.layer("http://127.0.0.1:0")),
    Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))))
  )

const HASH = /^scrypt\$(\d+)\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/

describe("password hashes", () => {
  it.effect("are scrypt at N = 2^15 by default, and verify only their own password", () =>
    Effect.gen(function* () {
      const passwords = yield* Passwords
      const stored = yield* passwords.hash("a long enough passphrase")
      expect(HASH.exec(stored)?.[1]).toBe("32768")
      expect(yield* passwords.verify("a long enough passphrase", stored)).toBe(true)
      expect(yield* passwords.verify("a long enough passphrasE", stored)).toBe(false)
      // The decoy has the cost of new hashes (so an unknown email costs what a wrong password does)
      // and no password matches it.
      expect(HASH.exec(passwords.decoyHash)?.[1]).toBe("32768")
      expect(yield* passwords.verify("", passwords.decoyHash)).toBe(false)
      expect(yield* passwords.verify("a long enough passphrase", "not a hash")).toBe(false)
    }).pipe(Effect.provide(passwordsWith({})))
  )

  it.effect("take PASSWORD_HASH_COST for new hashes and keep verifying hashes made at another cost", () =>
    Effect.gen(function* () {
      const made = yield* Effect.provide(
        Effect.flatMap(Passwords, (passwords) => passwords.hash("made at the default")),
        passwordsWith({})
      )
      const cheap = yield* Passwords
      const stored = yield* cheap.hash("made at the lower cost")
      expect(HASH.exec(stored)?.[1]).toBe("1024")
      expect(HASH.exec(cheap.decoyHash)?.[1]).toBe("1024")
      expect(yield* cheap.verify("made at the lower cost", stored)).toBe(true)
      // A hash keeps its own cost: lowering or raising the setting locks nobody out.
      expect(yield* cheap.verify("made at the default", made)).toBe(true)
      expect(yield* cheap.verify("made at another", made)).toBe(false)
    }).pipe(Effect.provide(passwordsWith({ PASSWORD_HASH_COST: "10" })))
  )

  it.effect("refuse a cost outside 10–17 at start, naming the setting", () =>
    Effect.gen(function* () {
      for (const value of ["9", "18", "15.5", "fast"]) {
        const exit = yield* Effect.exit(
          Effect.provide(Passwords, passwordsWith({ PASSWORD_HASH_COST: value }))
        )
        expect(Exit.isFailure(exit), value).toBe(true)
        if (Exit.isFailure(exit)) expect(String(exit.cause)).toContain("PASSWORD_HASH_COST")
      }
    })
  )
})
