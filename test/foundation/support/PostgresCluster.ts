// A throwaway PostgreSQL server of the test's own (initdb + pg_ctl beside TEST_PG_CTL), so a test can
// stop and restart it without disturbing the shared test server other files use.
import { dirname } from "node:path"
import * as Effect from "effect/Effect"
import { startPostgresServer } from "../../support/PostgresServer.js"

export const pgCtl = process.env.TEST_PG_CTL

export interface PostgresCluster {
  readonly url: string
  readonly stop: Effect.Effect<void>
  readonly start: Effect.Effect<void>
}

/** Creates and starts a cluster; it is stopped and deleted when the scope closes. */
export const postgresCluster = Effect.acquireRelease(
  Effect.promise(async () => {
    if (pgCtl === undefined) throw new Error("TEST_PG_CTL is not set")
    return startPostgresServer(dirname(pgCtl), "foundation-pg-")
  }),
  (server) => Effect.sync(server.destroy)
).pipe(
  Effect.map(
    (server): PostgresCluster => ({
      url: server.url,
      stop: Effect.sync(server.stop),
      start: Effect.sync(server.start)
    })
  )
)
