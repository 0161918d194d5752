// Fetching a Client ID Metadata Document: an outbound request whose URL a stranger chose. Bounded
// every way (extensions §8): https only (plain http only for loopback hosts, and only when the
// operator allows private addresses), no redirects (node's `get` never follows one), one deadline for
// lookup, connect, TLS, headers and body together, a byte cap, and no loopback, private, link-local
// or otherwise special address unless the operator allows them. The address check is made by
// request-filtering-agent on the address actually connected to (inside the agent's own lookup, and on
// IP literals before connecting), so a DNS answer cannot change between the check and the connection.
import * as Http from "node:http"
import * as Https from "node:https"
import { rootCertificates } from "node:tls"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from "request-filtering-agent"
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
      return undefined
    }

    const get = (url: URL) =>
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
            headers: { accept: "application/json", "user-agent": "podcast-platform-oauth" }
          },
          (response) => {
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
        // The agent's refusals (a private address) arrive here too; their text names the address.
        request.on("error", (error) => fail(`cannot fetch it: ${error.message}`))
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
        ? get(url)
        : Effect.fail(new ClientMetadataUnavailable({ reason: problem }))
    }

    return { fetch }
  })
}) {}
