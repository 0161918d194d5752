// Fetching a Client ID Metadata Document: an outbound request whose URL a stranger chose. Bounded
// every way (extensions §8): https only (plain http only for loopback hosts, and only when the
// operator allows private addresses), no redirects (node's `get` never follows one), one deadline for
// lookup, connect, TLS, headers and body together, a byte cap, and no loopback, private, link-local
// or otherwise special address unless the operator allows them. The address check is made by
// request-filtering-agent on the address actually connected to (inside the agent's own lookup, and on
// IP literals before connecting), so a DNS answer cannot change between the check and the connection.
// The agent allows whatever ipaddr.js calls `unicast`, which includes IPv6 forms that carry an IPv4
// address without a range of their own (`[::127.0.0.1]`, the deprecated IPv4-compatible ::/96): on
// top of it, an IPv6 address must be global unicast (2000::/3), checked on literals here and on every
// DNS answer in the lookup the agent wraps (docs/decisions/metadata-document-fetch.md). Refusals say
// only that the address is not allowed: never what a name resolved to. With traces exported, the
// fetch is a client span carrying the trace to the document's host.
import * as Dns from "node:dns"
import * as Http from "node:http"
import * as Https from "node:https"
import type { LookupFunction } from "node:net"
import { rootCertificates } from "node:tls"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import ipaddr from "ipaddr.js"
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from "request-filtering-agent"
import { type OutboundExchange, outboundRequest } from "../../observability/OutboundRequest.js"
import { jsonTextProblem } from "../Domain/Text.js"
import { FoundationConfig } from "../FoundationConfig.js"
import { isLoopbackHost } from "./RedirectUris.js"

/** A few seconds and a few KB (extensions §8): a metadata document is a small JSON object. */
export const FETCH_TIMEOUT_MS = 3000
export const MAX_DOCUMENT_BYTES = 5 * 1024

/** Why a metadata document could not be had, in words for the client's developer. */
export class ClientMetadataUnavailable extends Schema.TaggedError<ClientMetadataUnavailable>()(
  "ClientMetadataUnavailable",
  { reason: Schema.String }
) {}

export interface FetchedDocument {
  readonly body: unknown
  /** Seconds the document may be reused (Cache-Control `max-age`), when it says. */
  readonly maxAgeSeconds: number | undefined
  /** The document asked not to be stored (`no-store` or `no-cache`). */
  readonly noStore: boolean
}

/** IPv6's global unicast space (RFC 4291 §2.4, IANA): every other IPv6 address is refused. */
const globalUnicast = ipaddr.IPv6.parseCIDR("2000::/3")

/**
 * True when the fetch may connect to `address` (an IP address, without brackets): a unicast address
 * in ipaddr.js's reading (not loopback, private, link-local, unique-local, multicast, reserved,
 * carrier-grade NAT, NAT64, 6to4, Teredo, IPv4-mapped or any other special range), and for IPv6 one
 * of global unicast, which leaves out the IPv4-compatible `::a.b.c.d` that ipaddr.js calls unicast.
 * An IPv4-mapped address is judged as the IPv4 address it maps.
 */
export const publicAddress = (address: string): boolean => {
  if (ipaddr.IPv4.isValid(address)) return ipaddr.IPv4.parse(address).range() === "unicast"
  if (!ipaddr.IPv6.isValid(address)) return false
  // Not `ipaddr.process`: it also reads the IPv4-compatible `::8.8.8.8` as IPv4 (and `::808:808` not).
  const parsed = ipaddr.IPv6.parse(address)
  if (parsed.isIPv4MappedAddress()) return parsed.toIPv4Address().range() === "unicast"
  return parsed.range() === "unicast" && parsed.match(globalUnicast)
}

/** What a refused address is called, to the client and in logs: never the address or the name's answer. */
const ADDRESS_NOT_ALLOWED = "its address is not allowed"

/** The error a refused address fails the connection with; told apart by its code. */
const notAllowed = () => Object.assign(new Error(ADDRESS_NOT_ALLOWED), { code: "ADDRESS_NOT_ALLOWED" })

/** `Dns.lookup` that also refuses (as one error) any answer that is not a `publicAddress`. */
const publicLookup: LookupFunction = (hostname, options, callback) =>
  Dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error !== null) return callback(error, [])
    if (addresses.length === 0 || !addresses.every(({ address }) => publicAddress(address))) {
      return callback(notAllowed(), [])
    }
    if (options.all === true) return callback(null, addresses)
    const [first] = addresses
    return first === undefined ? callback(notAllowed(), []) : callback(null, first.address, first.family)
  })

/** Why a connection failed, in words that reveal nothing of what a name resolved to. */
const connectionProblem = (error: Error & { readonly code?: unknown }): string => {
  const code = typeof error.code === "string" ? error.code : ""
  // The agent's own refusals carry the address and the name in their message: only their kind is told.
  if (code === "ADDRESS_NOT_ALLOWED" || error.message.startsWith("DNS lookup ")) return ADDRESS_NOT_ALLOWED
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "cannot fetch it: its host name does not resolve"
  if (/CERT|SELF_SIGNED|UNABLE_TO|ERR_TLS|ERR_SSL/.test(code)) {
    return "cannot fetch it: its TLS certificate is not trusted"
  }
  return "cannot fetch it: the connection failed"
}

const maxAgeOf = (cacheControl: string): number | undefined => {
  const match = /(?:^|,)\s*max-age\s*=\s*"?(\d+)"?/i.exec(cacheControl)
  return match?.[1] === undefined ? undefined : Number(match[1])
}

export class ClientMetadataFetch extends Effect.Service<ClientMetadataFetch>()("ClientMetadataFetch", {
  effect: Effect.gen(function* () {
    const { oauthAllowPrivateAddresses: allowPrivate, oauthExtraCa } = yield* FoundationConfig
    // Giving `ca` replaces Node's authorities, so the extra ones are added to them.
    const ca = oauthExtraCa === undefined ? undefined : [...rootCertificates, oauthExtraCa]
    // Keep-alive off: every fetch looks the name up (and checks the address) again.
    const agents = {
      http: new RequestFilteringHttpAgent({ allowPrivateIPAddress: allowPrivate, keepAlive: false }),
      https: new RequestFilteringHttpsAgent({
        allowPrivateIPAddress: allowPrivate,
        keepAlive: false,
        ...(ca === undefined ? {} : { ca })
      })
    }

    /** The URL's problem before any connection is made, or undefined. */
    const refusal = (url: URL): string | undefined => {
      const plainHttpAllowed = allowPrivate && isLoopbackHost(url.hostname)
      if (url.protocol !== "https:" && !(url.protocol === "http:" && plainHttpAllowed)) {
        return allowPrivate
          ? "a client_id document must be served over https (or http on a loopback address)"
          : "a client_id document must be served over https"
      }
      if (url.username !== "" || url.password !== "" || url.hash !== "") {
        return "a client_id URL carries neither credentials nor a fragment"
      }
      // An IP literal is connected to without a lookup: judged here (the agent judges it too).
      const literal = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname
      if (!allowPrivate && ipaddr.isValid(literal) && !publicAddress(literal)) return ADDRESS_NOT_ALLOWED
      return undefined
    }

    const get = (url: URL, exchange: OutboundExchange) =>
      Effect.async<FetchedDocument, ClientMetadataUnavailable>((resume) => {
        let settled = false
        const finish = (outcome: Effect.Effect<FetchedDocument, ClientMetadataUnavailable>) => {
          if (settled) return
          settled = true
          clearTimeout(deadline)
          request.destroy()
          resume(outcome)
        }
        const fail = (reason: string) => finish(Effect.fail(new ClientMetadataUnavailable({ reason })))
        const deadline = setTimeout(
          () => fail(`no complete answer within ${FETCH_TIMEOUT_MS} ms`),
          FETCH_TIMEOUT_MS
        )
        const transport = url.protocol === "https:" ? Https : Http
        const request = transport.get(
          url,
          {
            agent: url.protocol === "https:" ? agents.https : agents.http,
            // The agent checks what this lookup answers, after it has checked it against the rule above.
            ...(allowPrivate ? {} : { lookup: publicLookup }),
            headers: {
              ...exchange.traceHeaders,
              accept: "application/json",
              "user-agent": "podcast-platform-oauth"
            }
          },
          (response) => {
            exchange.answered(response.statusCode ?? 0)
            // No redirects (extensions §8), and nothing but a document.
            if (response.statusCode !== 200) return fail(`the document answered ${response.statusCode}`)
            const declared = Number(response.headers["content-length"] ?? "0")
            if (declared > MAX_DOCUMENT_BYTES)
              return fail(`the document is larger than ${MAX_DOCUMENT_BYTES} bytes`)
            const chunks: Array<Buffer> = []
            let received = 0
            response.on("data", (chunk: Buffer) => {
              received += chunk.length
              if (received > MAX_DOCUMENT_BYTES)
                return fail(`the document is larger than ${MAX_DOCUMENT_BYTES} bytes`)
              chunks.push(chunk)
            })
            response.on("error", () => fail("the answer broke off"))
            response.on("end", () => {
              let body: unknown
              try {
                body = JSON.parse(Buffer.concat(chunks).toString("utf8"))
              } catch {
                return fail("the document is not JSON")
              }
              // It is kept as given (jsonb): every string in it must be text that can be stored.
              const problem = jsonTextProblem(body)
              if (problem !== undefined) return fail(problem)
              const cacheControl = String(response.headers["cache-control"] ?? "")
              finish(
                Effect.succeed({
                  body,
                  maxAgeSeconds: maxAgeOf(cacheControl),
                  noStore: /(?:^|,)\s*no-(?:store|cache)\b/i.test(cacheControl)
                })
              )
            })
          }
        )
        // The refusals of an address arrive here too; their text would name the address.
        request.on("error", (error) => fail(connectionProblem(error)))
        return Effect.sync(() => {
          settled = true
          clearTimeout(deadline)
          request.destroy()
        })
      })

    /** The document at `clientId`, within every bound above. */
    const fetch = (clientId: string): Effect.Effect<FetchedDocument, ClientMetadataUnavailable> => {
      const url = URL.parse(clientId)
      if (url === null) return Effect.fail(new ClientMetadataUnavailable({ reason: "not a URL" }))
      const problem = refusal(url)
      return problem === undefined
        ? outboundRequest("GET", url, (exchange) => get(url, exchange))
        : Effect.fail(new ClientMetadataUnavailable({ reason: problem }))
    }

    return { fetch }
  })
}) {}
