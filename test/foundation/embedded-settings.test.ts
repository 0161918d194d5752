// The embedded database starts with the buffer cache EMBEDDED_SHARED_BUFFERS asks for (PostgreSQL's
// default, 128MB, without it); the test servers run with 16MB (test/support/TestServer.ts).
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { layerDatabase } from "../../src/foundation/Database/Database.js"
import { FoundationConfig } from "../../src/foundation/FoundationConfig.js"
import { freshDataDir } from "./support/Backends.js"

const sharedBuffers = (env: Record<string, string>) =>
  Effect.scoped(
    Effect.gen(function* () {
      const dir = yield* freshDataDir
      return yield* Effect.provide(
        Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ sharedBuffers: string }>`SHOW shared_buffers`),
        layerDatabase.pipe(
          Layer.provide(FoundationConfig.layer("http://127.0.0.1:0")),
          Layer.provide(
            Layer.setConfigProvider(
              ConfigProvider.fromMap(new Map(Object.entries({ DATA_DIR: dir, ...env })))
            )
          )
        )
      )
    })
  ).pipe(Effect.map((rows) => rows[0]?.sharedBuffers))

describe("the embedded database's settings", () => {
  it.live("its buffer cache is EMBEDDED_SHARED_BUFFERS, 128MB by default", () =>
    Effect.gen(function* () {
      expect(yield* sharedBuffers({})).toBe("128MB")
      expect(yield* sharedBuffers({ EMBEDDED_SHARED_BUFFERS: "16MB" })).toBe("16MB")
    })
  )
})
