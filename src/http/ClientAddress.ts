// Who is calling, for rate limits: the socket's address or, behind a proxy you run (TRUST_PROXY), the
// address that proxy saw. One process-wide rule, read once by the server's settings and given to both
// features, so the catalog and the foundation count the same client the same way.
import type * as Http from "node:http"
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"

/**
 * The last X-Forwarded-For entry: the one the proxy in front of us appended for the peer it saw.
 * Earlier entries were written by whoever sent the request (a proxy that appends, as nginx's
 * `$proxy_add_x_forwarded_for` does, keeps them), so they are claims anyone can make; taking the
 * first would let every request pick its own address and escape every per-address limit.
 */
const lastForwarded = (header: string | ReadonlyArray<string> | undefined): string | undefined => {
  const value = typeof header === "string" ? header : header?.join(",")
  const last = value?.split(",").at(-1)?.trim()
  return last === undefined || last === "" ? undefined : last
}

export const nodeClientAddress = (request: Http.IncomingMessage, trustProxy: boolean): string =>
  (trustProxy ? lastForwarded(request.headers["x-forwarded-for"]) : undefined) ??
  request.socket.remoteAddress ??
  "unknown"

export const clientAddress = (request: HttpServerRequest.HttpServerRequest, trustProxy: boolean): string =>
  (trustProxy ? lastForwarded(request.headers["x-forwarded-for"]) : undefined) ??
  Option.getOrElse(request.remoteAddress, () => "unknown")

export interface ClientAddressRule {
  /** Whether X-Forwarded-For is believed (only behind a proxy you run: never from the open internet). */
  readonly trustProxy: boolean
  /** The client of a platform request. */
  readonly of: (request: HttpServerRequest.HttpServerRequest) => string
  /** The client of a plain node request, by the same rule. */
  readonly ofNode: (request: Http.IncomingMessage) => string
}

/** The rule in force, provided once for the whole server from its settings (TRUST_PROXY). */
export class ClientAddress extends Context.Tag("ClientAddress")<ClientAddress, ClientAddressRule>() {
  static readonly layer = (trustProxy: boolean) =>
    Layer.succeed(ClientAddress, {
      trustProxy,
      of: (request) => clientAddress(request, trustProxy),
      ofNode: (request) => nodeClientAddress(request, trustProxy)
    })
}
