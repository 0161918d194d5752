// Probes for orchestrators and load balancers, answered before every feature and never rate
// limited, whichever features are enabled:
// - `GET /livez`: the process is up and its event loop answers. It never looks at anything else, so
//   a database outage never gets the process restarted.
// - `GET /readyz`: whether to send it traffic: 503 while shutting down (from the moment SIGTERM
//   arrives), and while any check a feature registered fails (the database does not answer; no
//   snapshot is loaded). Checks run at most once a second, however many probes come, each within
//   two seconds.
// They sit beside `/health` rather than under it: `/health` is the catalog's contract (its snapshot,
// catalog-extensions §4) and exists only where the catalog is enabled.
import type * as Http from "node:http"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { MethodNotAllowed, ServiceUnavailable } from "./ApiError.js"
import { writeError } from "./ErrorAnswer.js"
import type { FastHandler, ReadinessCheck } from "./ServerRegistries.js"

export const livenessPath = "/livez"
export const readinessPath = "/readyz"

/** How long one probe's checks are remembered, so a flood of probes costs one round of checks. */
const checkInterval = Duration.seconds(1)
/** A check that has not answered by then has failed. */
const checkTimeout = Duration.seconds(2)

type CheckResults = Readonly<Record<string, string>>

interface Readiness {
  readonly ready: boolean
  readonly checks: CheckResults
}

export interface ProbeOptions {
  readonly checks: ReadonlyArray<ReadinessCheck>
  /** True once the server is shutting down. */
  readonly draining: () => boolean
  /** Runs the checks (Effects) from plain node code. */
  readonly runPromise: <A>(effect: Effect.Effect<A>) => Promise<A>
}

const pathOf = (url: string) => {
  const q = url.indexOf("?")
  return q === -1 ? url : url.slice(0, q)
}

const writeJson = (request: Http.IncomingMessage, response: Http.ServerResponse, body: unknown) => {
  const bytes = Buffer.from(JSON.stringify(body))
  response.writeHead(200, {
    "content-type": "application/json",
    "content-length": String(bytes.byteLength),
    "cache-control": "no-store"
  })
  response.end(request.method === "HEAD" ? undefined : bytes)
}

const runCheck = (check: ReadinessCheck) =>
  check.check.pipe(
    Effect.timeoutFail({ duration: checkTimeout, onTimeout: () => "no answer within 2 s" }),
    Effect.either,
    Effect.map((result) => [check.name, Either.isRight(result) ? "ok" : result.left] as const)
  )

/** The probes as a fast path: they answer their two paths and let everything else through. */
export const makeProbes = (options: ProbeOptions): FastHandler => {
  let latest: { readonly at: number; readonly results: Promise<CheckResults> } | undefined
  const checkResults = (): Promise<CheckResults> => {
    const now = Date.now()
    if (latest === undefined || now - latest.at >= Duration.toMillis(checkInterval)) {
      const results = options
        .runPromise(Effect.all(options.checks.map(runCheck), { concurrency: "unbounded" }))
        .then((pairs) => Object.fromEntries(pairs))
      latest = { at: now, results }
    }
    return latest.results
  }

  const readiness = async (): Promise<Readiness> => {
    if (options.draining()) return { ready: false, checks: { shutdown: "shutting down" } }
    const checks = await checkResults()
    // Shutting down may have begun while the checks ran.
    if (options.draining()) return { ready: false, checks: { ...checks, shutdown: "shutting down" } }
    return { ready: Object.values(checks).every((result) => result === "ok"), checks }
  }

  const answerReadiness = (request: Http.IncomingMessage, response: Http.ServerResponse) =>
    readiness().then(
      ({ ready, checks }) => {
        if (ready) return writeJson(request, response, { status: "ready", checks })
        const failing = Object.entries(checks).filter(([, result]) => result !== "ok")
        writeError(
          request,
          response,
          new ServiceUnavailable({
            message: `Not ready: ${failing.map(([name, result]) => `${name}: ${result}`).join("; ")}.`,
            data: { checks },
            retryAfterSeconds: 1
          })
        )
      },
      () =>
        writeError(request, response, new ServiceUnavailable({ message: "Not ready: the checks failed." }))
    )

  return (request, response) => {
    const path = pathOf(request.url ?? "/")
    if (path !== livenessPath && path !== readinessPath) return false
    if (request.method !== "GET" && request.method !== "HEAD") {
      writeError(
        request,
        response,
        new MethodNotAllowed({
          message: `${request.method} is not allowed on ${path}.`,
          allow: ["GET", "HEAD"]
        })
      )
      return path
    }
    if (path === livenessPath) writeJson(request, response, { status: "ok" })
    else void answerReadiness(request, response)
    return path
  }
}
