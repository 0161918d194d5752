// The foundation's failures as values: services fail with domain errors a caller can catch by tag
// (a stale version is not a taken slug), each renders as the contract's envelope with the headers
// its fields call for, and the database edge tells an unavailable database (503) from a wrong query
// (a defect, logged as one, also by the housekeeping job).
import * as SqlClient from "@effect/sql/SqlClient"
import { SqlError } from "@effect/sql/SqlError"
import { describe, expect, it, layer } from "@effect/vitest"
import * as Cause from "effect/Cause"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import * as Option from "effect/Option"
import { Accounts } from "../../src/foundation/Accounts/Accounts.js"
import { Sessions } from "../../src/foundation/Accounts/Sessions.js"
import { layerClient, layerDatabase } from "../../src/foundation/Database/Database.js"
import { atDatabaseEdge } from "../../src/foundation/Database/DatabaseEdge.js"
import { DatabaseUnavailable, LastOwner, RateLimited } from "../../src/foundation/Domain/Errors.js"
import { Slug } from "../../src/foundation/Domain/Organization.js"
import { FoundationServices } from "../../src/foundation/Foundation.js"
import { FoundationConfig } from "../../src/foundation/FoundationConfig.js"
import { housekeepingPass } from "../../src/foundation/Housekeeping.js"
import { Organizations } from "../../src/foundation/Organizations/Organizations.js"
import { isApiError, toEnvelope } from "../../src/http/ApiError.js"
import { errorResponse } from "../../src/http/ErrorResponse.js"
import { ProtectedResources } from "../../src/http/ProtectedResources.js"
import { freshDataDir, unmigratedDataDir } from "./support/Backends.js"
import { uniqueEmail } from "./support/FoundationClient.js"

const configured = (env: Record<string, string>) =>
  Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))

/** The foundation's services on a fresh embedded database, with no HTTP in front. */
const services = Layer.unwrapScoped(
  Effect.map(freshDataDir, (dir) =>
    FoundationServices.pipe(
      Layer.provideMerge(layerDatabase),
      Layer.provideMerge(FoundationConfig.layer("http://127.0.0.1:0")),
      Layer.provide(ProtectedResources.layer("http://127.0.0.1:0")),
      Layer.provide(configured({ DATA_DIR: dir }))
    )
  )
)

/** A database server error as node-postgres reports it. */
const serverError = (code: string) =>
  new SqlError({ cause: Object.assign(new Error(`SQLSTATE ${code}`), { severity: "ERROR", code }) })

const defectOf = <A, E>(exit: Exit.Exit<A, E>) =>
  Exit.isFailure(exit) ? Option.getOrUndefined(Cause.dieOption(exit.cause)) : undefined

describe("the foundation's services", () => {
  layer(services, { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect("a stale version and a taken slug are different errors a caller can catch by tag", () =>
      Effect.gen(function* () {
        const accounts = yield* Accounts
        const sessions = yield* Sessions
        const organizations = yield* Organizations
        const signedIn = yield* accounts.signUp(
          { email: uniqueEmail("tags"), password: "long enough password", name: "Tags" },
          { address: "127.0.0.1", userAgent: null }
        )
        const found = yield* sessions.authenticate(signedIn.sessionToken)
        if (Option.isNone(found)) throw new Error("the new session does not authenticate")
        const session = found.value.principal
        const slug = Slug.make(`tags-${Date.now()}`)
        const organization = yield* organizations.create(session, { name: "Tags", slug })

        const taken = yield* Effect.flip(organizations.create(session, { name: "Again", slug }))
        expect(taken._tag).toBe("SlugTaken")
        const stale = yield* Effect.flip(
          organizations.update(session, organization.id, { version: organization.version + 1, name: "Later" })
        )
        expect(stale._tag).toBe("StaleVersion")
        const retried = yield* organizations
          .update(session, organization.id, { version: organization.version + 1, name: "Later" })
          .pipe(Effect.catchTag("StaleVersion", () => Effect.succeed("read it again")))
        expect(retried).toBe("read it again")

        // Both are 409 on the wire, with the messages the contract's clients already see.
        expect(toEnvelope(taken)).toEqual({
          defined: true,
          code: "CONFLICT",
          status: 409,
          message: "This slug is already in use."
        })
        expect(toEnvelope(stale)).toEqual({
          defined: true,
          code: "CONFLICT",
          status: 409,
          message:
            "This organization changed since the version you sent. Read it again and retry with its version."
        })
      })
    )
  })
})

describe("domain errors on the wire", () => {
  it("keep the envelope's data and take their code from the status table", () => {
    expect(toEnvelope(new LastOwner())).toEqual({
      defined: true,
      code: "BAD_REQUEST",
      status: 400,
      message: "The last owner can be neither demoted nor removed. Make another member owner first.",
      data: { reason: "LAST_OWNER" }
    })
    expect(toEnvelope(new DatabaseUnavailable())).toEqual({
      defined: true,
      code: "SERVICE_UNAVAILABLE",
      status: 503,
      message: "The service is temporarily unavailable."
    })
  })

  it("carry Retry-After from their own fields, whatever their tag", () => {
    expect(errorResponse(new DatabaseUnavailable()).headers["retry-after"]).toBe("5")
    expect(errorResponse(new RateLimited({ retryAfterSeconds: 17 })).headers["retry-after"]).toBe("17")
    expect(errorResponse(new LastOwner()).headers["retry-after"]).toBeUndefined()
  })

  it("are contract errors; a database error, which has no status, is not", () => {
    expect(isApiError(new LastOwner())).toBe(true)
    expect(isApiError(serverError("42601"))).toBe(false)
  })
})

describe("the database edge", () => {
  it.effect("turns a database that cannot answer into DatabaseUnavailable", () =>
    Effect.gen(function* () {
      const refused = new SqlError({
        cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" })
      })
      for (const error of [refused, serverError("57P01"), serverError("57014"), serverError("40001")]) {
        const failure = yield* Effect.flip(atDatabaseEdge(Effect.fail(error)))
        expect(failure).toBeInstanceOf(DatabaseUnavailable)
      }
    })
  )

  it.effect("turns a wrong query, or a constraint nobody expected, into a defect", () =>
    Effect.gen(function* () {
      for (const error of [serverError("42601"), serverError("23505"), serverError("42P01")]) {
        const exit = yield* Effect.exit(atDatabaseEdge(Effect.fail(error)))
        expect(defectOf(exit)).toBe(error)
      }
    })
  )

  it.live(
    "a housekeeping pass that meets a wrong query logs it as an error with its cause",
    () =>
      Effect.gen(function* () {
        const dir = yield* unmigratedDataDir
        const lines: Array<{ level: LogLevel.LogLevel; text: string; cause: Cause.Cause<unknown> }> = []
        const capture = Logger.make(({ logLevel, message, cause }) => {
          lines.push({ level: logLevel, text: String(message), cause })
        })
        // A database without the schema: every delete names a table that does not exist.
        yield* housekeepingPass.pipe(
          Effect.provide(layerClient.pipe(Layer.provide(FoundationConfig.layer("http://127.0.0.1:0")))),
          Effect.provide(configured({ DATA_DIR: dir })),
          Effect.provide(Logger.replace(Logger.defaultLogger, capture)),
          Logger.withMinimumLogLevel(LogLevel.All)
        )
        expect(lines.map((line) => [line.level.label, line.text])).toEqual([["ERROR", "Housekeeping failed"]])
        const defect = lines[0] === undefined ? undefined : Cause.squash(lines[0].cause)
        expect(defect).toBeInstanceOf(SqlError)
        expect(Cause.isDie(lines[0]?.cause ?? Cause.empty)).toBe(true)
        expect(lines.some((line) => line.text.includes("unavailable"))).toBe(false)
      }).pipe(Effect.scoped),
    // A fresh embedded database and every migration: slow on a loaded machine.
    120_000
  )

  it.live(
    "the same pass on a migrated database succeeds and logs nothing",
    () =>
      Effect.gen(function* () {
        const dir = yield* unmigratedDataDir
        const lines: Array<string> = []
        const capture = Logger.make(({ message }) => {
          lines.push(String(message))
        })
        yield* Effect.gen(function* () {
          yield* Effect.flatMap(SqlClient.SqlClient, (sql) => sql`SELECT 1`)
          yield* housekeepingPass.pipe(Effect.provide(Logger.replace(Logger.defaultLogger, capture)))
        }).pipe(
          Effect.provide(layerDatabase.pipe(Layer.provide(FoundationConfig.layer("http://127.0.0.1:0")))),
          Effect.provide(configured({ DATA_DIR: dir }))
        )
        expect(lines).toEqual([])
      }).pipe(Effect.scoped),
    // A fresh embedded database and every migration: slow on a loaded machine.
    120_000
  )
})
