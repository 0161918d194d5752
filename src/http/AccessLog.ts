// One line per answered request on stdout (ACCESS_LOG): method, path, status and time taken.
import type * as Http from "node:http"

/** Logs the request once its answer is sent. */
export const logAccess = (request: Http.IncomingMessage, response: Http.ServerResponse): void => {
  const started = process.hrtime.bigint()
  response.once("finish", () => {
    const url = request.url ?? "/"
    const q = url.indexOf("?")
    // The path only: query strings may carry values a log should not keep.
    const path = q === -1 ? url : url.slice(0, q)
    const ms = Number(process.hrtime.bigint() - started) / 1e6
    process.stdout.write(`${request.method} ${path} ${response.statusCode} ${ms.toFixed(2)}ms\n`)
  })
}
