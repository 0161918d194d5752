// Password hashing and its cost setting: scrypt at N = 2^15 unless PASSWORD_HASH_COST says otherwise,
// the cost written into each hash so that a hash made at one cost still verifies under another, the
// decoy that unknown emails are checked against at the cost new hashes get, and a cost out of range
// refused at start, and a sign-in that hashes again a password stored at a lower cost than the
// setting's. (Test servers run at 2^10, test/support/TestServer.ts: this file holds the default.)
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import { Accounts } from "../../src/foundation/Accounts/Accounts.js"
import { layerDatabase } from "../../src/foundation/Database/Database.js"
import { FoundationServices } from "../../src/foundation/Foundation.js"
import { FoundationConfig } from "../../src/foundation/FoundationConfig.js"
import { Passwords } from "../../src/foundation/Security/Passwords.js"
import { ProtectedResources } from "../../src/http/ProtectedResources.js"
import { freshDataDir } from "./support/Backends.js"
import { uniqueEmail } from "./support/FoundationClient.js"

const ORIGIN = "http://127.0.0.1:0"

const configured = (env: Record<string, string>) =>
  Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))

const passwordsWith = (env: Record<string, string>) =>
  Passwords.Default.pipe(Layer.provide(FoundationConfig.layer(ORIGIN)), Layer.provide(configured(env)))

/** The foundation's services on the embedded database in `dir`, hashing at `cost`. */
const servicesOn = (dir: string, cost: string) =>
  FoundationServices.pipe(
    Layer.provideMerge(layerDatabase),
    Layer.provideMerge(FoundationConfig.layer(ORIGIN)),
    Layer.provide(ProtectedResources.layer(ORIGIN)),
    Layer.provide(configured({ DATA_DIR: dir, PASSWORD_HASH_COST: cost }))
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

  it.live("are made again at a sign-in when the setting was raised, never lowered", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const dir = yield* freshDataDir
        const email = uniqueEmail("upgrade")
        const password = "an upgradable passphrase"
        const client = { address: "127.0.0.1", userAgent: null }
        const storedCost = Effect.flatMap(SqlClient.SqlClient, (sql) =>
          Effect.map(
            sql<{ passwordHash: string }>`
              SELECT p.password_hash FROM password_credentials p JOIN users u ON u.id = p.user_id
              WHERE u.email = ${email}`,
            ([row]) => HASH.exec(row?.passwordHash ?? "")?.[1]
          )
        )
        const signIn = (cost: string) =>
          Effect.provide(
            Effect.gen(function* () {
              const accounts = yield* Accounts
              const before = yield* storedCost
              yield* accounts.signIn({ email, password }, client)
              // A wrong password changes nothing.
              yield* Effect.flip(accounts.signIn({ email, password: "not the passphrase" }, client))
              return { before, after: yield* storedCost }
            }),
            servicesOn(dir, cost)
          )

        yield* Effect.provide(
          Effect.flatMap(Accounts, (accounts) => accounts.signUp({ email, password, name: "Up" }, client)),
          servicesOn(dir, "10")
        )
        expect(yield* signIn("10")).toEqual({ before: "1024", after: "1024" })
        expect(yield* signIn("11")).toEqual({ before: "1024", after: "2048" })
        // Lowering the setting keeps the stronger hash, and it still signs in.
        expect(yield* signIn("10")).toEqual({ before: "2048", after: "2048" })
      })
    )
  )
})
