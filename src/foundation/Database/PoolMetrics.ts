// The database pool in the service's metrics: its connections in use and idle and the statements
// waiting for one (read at each collection), and, when metrics are exported, the duration of every
// statement. Both the SQL client and the untraced statements take their connections from the one
// pool, so a statement is measured where the pool hands out its clients: each new client's `query`
// is timed, whichever form it is called in (callback or promise).

import * as Effect from "effect/Effect"
import type * as MetricLabel from "effect/MetricLabel"
import type * as Scope from "effect/Scope"
import type * as Pg from "pg"
import {
  dbClientConnectionsPendingRequests,
  dbClientConnectionsUsage,
  dbClientOperationDuration,
  labels,
  observeMetrics
} from "../../observability/ServiceMetrics.js"

const poolName = "foundation"
const usedLabels = labels({ state: "used", "pool.name": poolName })
const idleLabels = labels({ state: "idle", "pool.name": poolName })
const poolLabels = labels({ "pool.name": poolName })

// The statements this service sends begin with one of these; anything else is `OTHER`, so the
// operation attribute stays a handful of values.
const operations = new Map<string, ReadonlyArray<MetricLabel.MetricLabel>>(
  [
    "SELECT",
    "INSERT",
    "UPDATE",
    "DELETE",
    "WITH",
    "BEGIN",
    "COMMIT",
    "ROLLBACK",
    "SAVEPOINT",
    "RELEASE",
    "SET",
    "OTHER"
  ].map((name) => [name, labels({ "db.system.name": "postgresql", "db.operation.name": name })])
)
const otherLabels = operations.get("OTHER") ?? []
const firstWord = /^\s*([A-Za-z]+)/

const operationLabels = (statement: unknown): ReadonlyArray<MetricLabel.MetricLabel> => {
  const text =
    typeof statement === "string"
      ? statement
      : typeof statement === "object" && statement !== null && "text" in statement
        ? String(statement.text)
        : ""
  const word = firstWord.exec(text)?.[1]?.toUpperCase()
  return (word === undefined ? undefined : operations.get(word)) ?? otherLabels
}

type Query = (...args: Array<unknown>) => unknown

/** Times every statement `client` runs: for the pool's "connect" event, before its first client. */
export const measureStatements = (client: Pg.PoolClient): void => {
  const query = client.query.bind(client) as Query
  const measured: Query = (...args) => {
    const started = performance.now()
    const tags = operationLabels(args[0])
    const done = () => dbClientOperationDuration.unsafeUpdate((performance.now() - started) / 1000, tags)
    const last = args.length - 1
    const callback = args[last]
    if (typeof callback === "function") {
      args[last] = (...answer: Array<unknown>) => {
        done()
        return (callback as Query)(...answer)
      }
      return query(...args)
    }
    const result = query(...args)
    // The promise form; the caller keeps its own promise, so a failure stays the caller's to handle.
    if (result instanceof Promise) result.then(done, done)
    return result
  }
  ;(client as unknown as { query: Query }).query = measured
}

/** Reports the pool's connections before each collection of metrics, for the scope. */
export const observePool = (pool: Pg.Pool): Effect.Effect<void, never, Scope.Scope> =>
  observeMetrics(
    Effect.sync(() => {
      dbClientConnectionsUsage.unsafeUpdate(pool.totalCount - pool.idleCount, usedLabels)
      dbClientConnectionsUsage.unsafeUpdate(pool.idleCount, idleLabels)
      dbClientConnectionsPendingRequests.unsafeUpdate(pool.waitingCount, poolLabels)
    })
  )
