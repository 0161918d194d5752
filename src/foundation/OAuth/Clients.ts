// Who the OAuth clients are (extensions §8): dynamic registration (RFC 7591, public and confidential),
// Client ID Metadata Documents (a client id that is a URL is fetched, checked and cached by its HTTP
// caching headers), and client authentication at the token and revocation endpoints (public clients
// name themselves; confidential ones prove their secret with HTTP Basic, compared as hashes in
// constant time).
import { timingSafeEqual } from "node:crypto"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import type { DatabaseUnavailable, RateLimited } from "../Domain/Errors.js"
import { jsonTextProblem, parametersTextProblem } from "../Domain/Text.js"
import { FoundationConfig } from "../FoundationConfig.js"
import { RateLimiter } from "../Security/RateLimiter.js"
import { hashSecret, newId, randomSecret } from "../Security/Secrets.js"
import { traced } from "../Traced.js"
import { ClientMetadataFetch } from "./ClientMetadataFetch.js"
import { ClientRepo } from "./ClientRepo.js"
import {
  MAX_CLIENT_ID_LENGTH,
  type OAuthClient,
  REGISTERED_CLIENT_PREFIX,
  TokenEndpointAuthMethod
} from "./OAuthClient.js"
import { InvalidClient, InvalidClientMetadata, InvalidRedirectUri, InvalidRequest } from "./OAuthErrors.js"
import { isLoopbackHost, redirectUriProblem } from "./RedirectUris.js"

/** A confidential client's secret starts with this, so secret scanners and people can recognise one. */
export const CLIENT_SECRET_PREFIX = "fcs_"
const MAX_REDIRECT_URIS = 10
const MAX_URI_LENGTH = 2000
const MAX_CLIENT_NAME = 120

/** How long a document that could not be had (or was refused) is answered from memory, not fetched again. */
const FAILURE_MEMORY_MS = 30_000
/** Failures remembered at most (the oldest are forgotten first). */
const REMEMBERED_FAILURES = 1000

/** A fetched metadata document that passed every check: what is stored for its client. */
interface CheckedDocument {
  readonly name: string | null
  readonly redirectUris: ReadonlyArray<string>
  readonly metadata: unknown
  readonly cacheSeconds: number
}

/** Seconds a fetched metadata document is trusted: its own max-age, within a minute and a day. */
const cacheSeconds = (maxAge: number | undefined, noStore: boolean) =>
  noStore ? 60 : Math.min(86_400, Math.max(60, maxAge ?? 300))

/** The RFC 7591 §3.2.1 answer: the client as registered, and its secret once for a confidential one. */
export const RegistrationResponse = Schema.Struct({
  client_id: Schema.String,
  client_id_issued_at: Schema.Int,
  client_secret: Schema.optional(Schema.String),
  client_secret_expires_at: Schema.optional(Schema.Literal(0)),
  client_name: Schema.optional(Schema.String),
  redirect_uris: Schema.Array(Schema.String),
  token_endpoint_auth_method: TokenEndpointAuthMethod,
  grant_types: Schema.Array(Schema.String),
  response_types: Schema.Array(Schema.String)
})
export type RegistrationResponse = typeof RegistrationResponse.Type

const isStringArray = (value: unknown): value is ReadonlyArray<string> =>
  Array.isArray(value) && value.every((item) => typeof item === "string")

/** The redirect URIs of a registration or a document, every one allowed. */
const checkRedirectUris = <E>(
  value: unknown,
  fail: (description: string) => E
): Effect.Effect<ReadonlyArray<string>, E> => {
  if (!isStringArray(value) || value.length === 0 || value.length > MAX_REDIRECT_URIS) {
    return Effect.fail(fail(`redirect_uris must list 1 to ${MAX_REDIRECT_URIS} URIs.`))
  }
  for (const uri of value) {
    if (uri.length > MAX_URI_LENGTH)
      return Effect.fail(fail(`A redirect URI is longer than ${MAX_URI_LENGTH} characters.`))
    const problem = redirectUriProblem(uri)
    if (problem !== undefined) return Effect.fail(fail(`The redirect URI ${uri} ${problem}.`))
  }
  return Effect.succeed([...new Set(value)])
}

const clientName = (value: unknown): string | null =>
  typeof value === "string" && value.trim() !== "" ? value.trim().slice(0, MAX_CLIENT_NAME) : null

/** True when `id` is a client id that names a metadata document (a URL), not a registration. */
const isDocumentId = (id: string) => id.startsWith("https://") || id.startsWith("http://")

export class Clients extends Effect.Service<Clients>()("Clients", {
  effect: Effect.gen(function* () {
    const repo = yield* ClientRepo
    const fetcher = yield* ClientMetadataFetch
    const limiter = yield* RateLimiter
    const { oauthAllowPrivateAddresses, oauthDocumentFetchRateLimit } = yield* FoundationConfig

    /** RFC 7591 registration: the client's id, and its secret shown this once. */
    const register = traced("Clients.register", (metadata: Readonly<Record<string, unknown>>) =>
      Effect.gen(function* () {
        // The metadata is kept as given (jsonb): every string in it must be text that can be stored.
        const problem = jsonTextProblem(metadata)
        if (problem !== undefined) return yield* new InvalidClientMetadata({ description: problem })
        const redirectUris = yield* checkRedirectUris(
          metadata.redirect_uris,
          (description) => new InvalidRedirectUri({ description })
        )
        // RFC 7591 §2: a client that says nothing authenticates with client_secret_basic.
        const method = metadata.token_endpoint_auth_method ?? "client_secret_basic"
        if (!Schema.is(TokenEndpointAuthMethod)(method)) {
          return yield* new InvalidClientMetadata({
            description: "token_endpoint_auth_method must be none or client_secret_basic."
          })
        }
        const grantTypes = metadata.grant_types ?? ["authorization_code"]
        if (
          !isStringArray(grantTypes) ||
          !grantTypes.every((grant) => grant === "authorization_code" || grant === "refresh_token")
        ) {
          return yield* new InvalidClientMetadata({
            description: "grant_types may hold authorization_code and refresh_token only."
          })
        }
        const responseTypes = metadata.response_types ?? ["code"]
        if (!isStringArray(responseTypes) || !responseTypes.every((type) => type === "code")) {
          return yield* new InvalidClientMetadata({ description: 'response_types may hold "code" only.' })
        }
        const name = clientName(metadata.client_name)
        const id = newId(REGISTERED_CLIENT_PREFIX)
        const secret =
          method === "client_secret_basic" ? `${CLIENT_SECRET_PREFIX}${randomSecret(32)}` : undefined
        yield* repo.insertRegistered({
          id,
          name,
          redirectUris,
          tokenEndpointAuthMethod: method,
          secretHash: secret === undefined ? null : hashSecret(secret),
          metadata
        })
        return {
          client_id: id,
          client_id_issued_at: Math.floor(Date.now() / 1000),
          ...(secret === undefined ? {} : { client_secret: secret, client_secret_expires_at: 0 as const }),
          ...(name === null ? {} : { client_name: name }),
          redirect_uris: redirectUris,
          token_endpoint_auth_method: method,
          // Every client may refresh (extensions §8: refresh tokens come with every code), so the
          // registration says so whatever was asked (RFC 7591 §3.2.1 lets the server replace values).
          grant_types: ["authorization_code", "refresh_token"],
          response_types: ["code"]
        } satisfies RegistrationResponse
      })
    )

    /** Fetches a metadata document and checks it (nothing is stored here). */
    const checkDocument = (id: string): Effect.Effect<CheckedDocument, InvalidClient> =>
      Effect.gen(function* () {
        const url = URL.parse(id)
        // A document URL names a document: it has a path (the CIMD draft requires one).
        if (url === null || url.pathname === "/" || url.search !== "") {
          return yield* new InvalidClient({
            description: "A client_id URL must name a document by its path, without a query.",
            usedBasic: false
          })
        }
        if (url.protocol === "http:" && !(oauthAllowPrivateAddresses && isLoopbackHost(url.hostname))) {
          return yield* new InvalidClient({
            description: "A client_id URL must be https.",
            usedBasic: false
          })
        }
        const fetched = yield* fetcher.fetch(id).pipe(
          Effect.mapError(
            (error) =>
              new InvalidClient({
                description: `The client metadata document cannot be used: ${error.reason}.`,
                usedBasic: false
              })
          )
        )
        const invalid = (description: string) =>
          new InvalidClient({ description: `The client metadata document ${description}`, usedBasic: false })
        const document = fetched.body
        if (typeof document !== "object" || document === null || Array.isArray(document)) {
          return yield* invalid("is not a JSON object.")
        }
        const fields = document as Record<string, unknown>
        if (fields.client_id !== id) return yield* invalid("names another client_id than its own URL.")
        // A document is public: anyone can read it, so it can hold no secret.
        if ("client_secret" in fields || (fields.token_endpoint_auth_method ?? "none") !== "none") {
          return yield* invalid("must describe a public client (token_endpoint_auth_method none).")
        }
        const redirectUris = yield* checkRedirectUris(fields.redirect_uris, (description) =>
          invalid(`is not acceptable: ${description}`)
        )
        return {
          name: clientName(fields.client_name),
          redirectUris,
          metadata: document,
          cacheSeconds: cacheSeconds(fetched.maxAgeSeconds, fetched.noStore)
        } satisfies CheckedDocument
      })

    // A URL a stranger names makes this server fetch it, so fetches are few: one at a time per URL
    // (concurrent requests share it), a failure is remembered for a while (the requests in that
    // while get the same answer without a fetch), and each fetch counts against the address of the
    // request that started it. A success is stored (`saveDocument`) and found there next time.
    const fetching = new Map<string, Deferred.Deferred<CheckedDocument, InvalidClient>>()
    const failures = new Map<string, { readonly error: InvalidClient; readonly until: number }>()

    const rememberFailure = (id: string, error: InvalidClient) =>
      Effect.sync(() => {
        const now = Date.now()
        for (const [key, failure] of failures) {
          if (failure.until <= now || failures.size >= REMEMBERED_FAILURES) failures.delete(key)
          else break
        }
        failures.set(id, { error, until: now + FAILURE_MEMORY_MS })
      })

    /** The checked document at `id`: a remembered failure, the fetch under way, or a new fetch. */
    const sharedDocument = (id: string, requester: string) =>
      Effect.gen(function* () {
        const remembered = failures.get(id)
        if (remembered !== undefined && remembered.until > Date.now()) return yield* remembered.error
        const underWay = fetching.get(id)
        if (underWay !== undefined) return yield* Deferred.await(underWay)
        yield* limiter.consume(`oauth-document-fetch:${requester}`, oauthDocumentFetchRateLimit)
        // Another request may have started it while the limit was counted.
        const started = fetching.get(id)
        if (started !== undefined) return yield* Deferred.await(started)
        const result = yield* Deferred.make<CheckedDocument, InvalidClient>()
        fetching.set(id, result)
        // Its own fiber: a request that goes away does not end the fetch the others wait for.
        yield* Effect.forkDaemon(
          Deferred.complete(
            result,
            Effect.tapError(checkDocument(id), (error) => rememberFailure(id, error))
          ).pipe(Effect.ensuring(Effect.sync(() => fetching.delete(id))))
        )
        return yield* Deferred.await(result)
      })

    /** Fetches (or shares a fetch of), checks and stores the client a metadata document describes. */
    const fromDocument = (id: string, requester: string) =>
      Effect.flatMap(sharedDocument(id, requester), (checked) => repo.saveDocument({ id, ...checked }))

    /**
     * The client with this id: registered here, or described by the metadata document at this URL
     * (fetched when no live copy is kept). Fails with InvalidClient, whose description says why, and
     * with RateLimited when a fetch would be one too many for the `requester`'s address.
     */
    const resolve = traced(
      "Clients.resolve",
      (
        id: string,
        requester: string
      ): Effect.Effect<OAuthClient, InvalidClient | RateLimited | DatabaseUnavailable> =>
        Effect.gen(function* () {
          if (id.length === 0 || id.length > MAX_CLIENT_ID_LENGTH) {
            return yield* new InvalidClient({
              description: `A client_id has 1 to ${MAX_CLIENT_ID_LENGTH} characters.`,
              usedBasic: false
            })
          }
          const kept = yield* repo.findLive(id)
          if (Option.isSome(kept)) return kept.value
          if (isDocumentId(id)) return yield* fromDocument(id, requester)
          return yield* new InvalidClient({
            description: "The client_id is not one of this service's clients.",
            usedBasic: false
          })
        })
    )

    /**
     * Client authentication at the token and revocation endpoints (RFC 6749 §2.3): `Authorization:
     * Basic` for confidential clients, `client_id` in the body for public ones. Every refusal is the
     * same invalid_client, so the answer does not tell a wrong secret from an unknown client. Storage
     * that cannot answer is not a refusal: it stays DatabaseUnavailable (503, extensions §8), since a
     * client takes invalid_client as final and drops its credentials.
     */
    const authenticate = traced(
      "Clients.authenticate",
      (
        authorization: string | undefined,
        bodyClientId: string | undefined,
        requester: string
      ): Effect.Effect<OAuthClient, InvalidClient | InvalidRequest | RateLimited | DatabaseUnavailable> =>
        Effect.gen(function* () {
          const basic = authorization === undefined ? undefined : parseBasic(authorization)
          // What the header decodes to is input like any other: no NUL, no lone surrogate.
          const problem =
            basic === undefined
              ? undefined
              : parametersTextProblem([
                  ["client_id (Authorization: Basic)", basic.id],
                  ["client_secret (Authorization: Basic)", basic.secret]
                ])
          if (problem !== undefined) return yield* new InvalidRequest({ description: problem })
          const refused = new InvalidClient({
            description: "Client authentication failed.",
            usedBasic: authorization !== undefined
          })
          if (authorization !== undefined) {
            if (basic === undefined) return yield* refused
            if (bodyClientId !== undefined && bodyClientId !== basic.id) return yield* refused
            const client = yield* resolve(basic.id, requester).pipe(
              Effect.catchTag("InvalidClient", () => refused)
            )
            if (client.tokenEndpointAuthMethod !== "client_secret_basic" || client.secretHash === null) {
              return yield* refused
            }
            const given = Buffer.from(hashSecret(basic.secret), "ascii")
            const stored = Buffer.from(client.secretHash, "ascii")
            if (given.length !== stored.length || !timingSafeEqual(given, stored)) return yield* refused
            return client
          }
          if (bodyClientId === undefined) return yield* refused
          const client = yield* resolve(bodyClientId, requester).pipe(
            Effect.catchTag("InvalidClient", () => refused)
          )
          if (client.tokenEndpointAuthMethod !== "none") return yield* refused
          return client
        })
    )

    return { register, resolve, authenticate }
  })
}) {}

/**
 * The client id and secret of `Authorization: Basic …`. RFC 6749 §2.3.1: both were form-encoded
 * before Base64, so each is decoded again; a header that does not decode is no credential.
 */
export const parseBasic = (header: string): { readonly id: string; readonly secret: string } | undefined => {
  const match = /^Basic ([A-Za-z0-9+/]+=*)$/i.exec(header)
  if (match?.[1] === undefined) return undefined
  const decoded = Buffer.from(match[1], "base64").toString("utf8")
  const colon = decoded.indexOf(":")
  if (colon <= 0) return undefined
  try {
    const formDecode = (text: string) => decodeURIComponent(text.replace(/\+/g, " "))
    return { id: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)) }
  } catch {
    return undefined
  }
}
