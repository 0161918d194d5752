// Who is calling, for rate limits: the socket's address, or, behind a proxy you run and trust, the
// first address in X-Forwarded-For. Never trust that header from the open internet.
import type * as Http from "node:http"
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Option from "effect/Option"

const firstForwarded = (header: string | ReadonlyArray<string> | undefined): string | undefined => {
  const value = Array.isArray(header) ? header[0] : header
  const first = typeof value === "string" ? value.split(",")[0]?.trim() : undefined
  return first === undefined || first === "" ? undefined : first
}

export const nodeClientAddress = (request: Http.IncomingMessage, trustProxy: boolean): string =>
  (trustProxy ? firstForwarded(request.headers["x-forwarded-for"]) : undefined) ??
  request.socket.remoteAddress ??
  "unknown"

export const clientAddress = (request: HttpServerRequest.HttpServerRequest, trustProxy: boolean): string =>
  (trustProxy ? firstForwarded(request.headers["x-forwarded-for"]) : undefined) ??
  Option.getOrElse(request.remoteAddress, () => "unknown")
