// Several instances of the service (real child processes running the production bundle) on one
// PostgreSQL database and one catalog snapshot, behind nginx: the deployment the architecture
// promises, for the scale-out tests and the soak benchmark. Each instance keeps its port across
// restarts, so nginx's configuration never changes.
import * as Effect from "effect/Effect"
import { emptyPostgresDatabase, hasPostgres } from "../foundation/support/Backends.js"
import { buildFixtureSnapshot } from "./CatalogTestServer.js"
import { type ChildService, freePort, serverBundle, spawnService } from "./ChildService.js"
import { type Nginx, nginx, nginxMissing } from "./Nginx.js"

/** Why the cluster cannot run here, or undefined when it can. */
export const clusterMissing: string | undefined =
  nginxMissing ?? (hasPostgres ? undefined : "TEST_DATABASE_URL is not set (a PostgreSQL server is needed)")

export interface ClusterInstance {
  readonly name: string
  readonly port: number
  /** The process running now (a new one after each restart). */
  readonly current: () => ChildService
  /** Sends SIGTERM and resolves with the exit code once the process has ended. */
  readonly stop: () => Promise<number | string>
  /** Starts a new process on the same port; resolves once it is ready. */
  readonly start: () => Promise<void>
}

export interface ServiceCluster {
  readonly nginx: Nginx
  readonly databaseUrl: string
  readonly instances: ReadonlyArray<ClusterInstance>
}

/** Shared by every instance, so that cursors signed by one are valid on the others. */
export const clusterCursorSecret = "scale-out-cursor-secret-0123456789abcdef"

/**
 * `count` instances with `env` on top of the shared settings, behind nginx, serving the catalog
 * snapshot in `snapshotDirectory` (the fixture podcast's when left out).
 */
export const serviceCluster = (env: Record<string, string> = {}, count = 2, snapshotDirectory?: string) =>
  Effect.gen(function* () {
    const bundle = yield* serverBundle
    const { url: databaseUrl } = yield* emptyPostgresDatabase
    const snapshot = snapshotDirectory ?? (yield* buildFixtureSnapshot())
    const ports = yield* Effect.promise(() => Promise.all(Array.from({ length: count }, () => freePort())))
    // Shorter than any drain delay the tests and the soak use (1 s and more).
    const balancer = yield* nginx(ports, "500ms")
    const shared = {
      DATABASE_URL: databaseUrl,
      CATALOG_DIR: snapshot,
      CATALOG_CURSOR_SECRET: clusterCursorSecret,
      PUBLIC_ORIGIN: balancer.url,
      TRUST_PROXY: "true",
      // As for the in-process test server: the default cost queues sign-ins for 50 ms of a core each,
      // which on a loaded machine stretches a burst past the drain's grace period.
      PASSWORD_HASH_COST: "10",
      ...env
    }
    const running: Array<ChildService | undefined> = ports.map(() => undefined)
    const instances = ports.map((port, index): ClusterInstance => {
      const start = async () => {
        running[index] = await spawnService(bundle, shared, port)
      }
      return {
        name: `instance ${index + 1}`,
        port,
        current: () => {
          const service = running[index]
          if (service === undefined) throw new Error(`instance ${index + 1} is not running`)
          return service
        },
        stop: async () => {
          const service = running[index]
          if (service === undefined) return "not running"
          service.child.kill("SIGTERM")
          return service.exited
        },
        start
      }
    })
    yield* Effect.acquireRelease(
      // Started together, as a deployment would: their migrations meet on the one database.
      Effect.promise(() => Promise.all(instances.map((instance) => instance.start()))),
      () =>
        Effect.promise(() =>
          Promise.all(
            running.map(async (service) => {
              if (
                service === undefined ||
                service.child.exitCode !== null ||
                service.child.signalCode !== null
              )
                return
              service.child.kill("SIGKILL")
              await service.exited
            })
          )
        )
    )
    return { nginx: balancer, databaseUrl, instances } satisfies ServiceCluster
  })
