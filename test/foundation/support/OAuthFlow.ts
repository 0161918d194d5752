// The OAuth side of the foundation tests: oauth4webapi as the strict, independent client (its
// transport maps the service's public origin to the test server's address, as DNS would), and a
// person's browser played with fetch (a session cookie, the consent page's form posted back from the
// service's own origin). The Chromium test (test/pages/oauth-consent.test.ts) plays the same part
// with a real browser.
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as oauth from "oauth4webapi"
import { ServerAddress } from "../../../src/http/NodeServer.js"
import { type Account, COOKIE, PUBLIC_ORIGIN } from "./FoundationClient.js"

/** The client's redirect URI: nothing listens there; the "browser" stops when it is sent there. */
export const REDIRECT_URI = "http://127.0.0.1:9/callback"
export const API_RESOURCE = `${PUBLIC_ORIGIN}/api/v1`

export interface OAuthWorld {
  readonly as: oauth.AuthorizationServer
  /** Options every oauth4webapi request needs here: plain http on loopback, and the origin mapping. */
  readonly options: {
    readonly [oauth.allowInsecureRequests]: true
    readonly [oauth.customFetch]: (
      url: string,
      init: oauth.CustomFetchOptions<string, oauth.ProtectedResourceRequestBody | URLSearchParams | string>
    ) => Promise<Response>
  }
  /** fetch, with the public origin mapped to the server. */
  readonly fetch: (input: string | URL, init?: RequestInit) => Promise<Response>
}

/** Discovers the authorization server through its RFC 8414 metadata. */
export const oauthWorld = Effect.gen(function* () {
  const address = yield* ServerAddress
  const mapped = (input: string | URL) => {
    const url = String(input)
    return url.startsWith(PUBLIC_ORIGIN) ? `${address.url}${url.slice(PUBLIC_ORIGIN.length)}` : url
  }
  const mappedFetch = (input: string | URL, init?: RequestInit) =>
    fetch(mapped(input), { redirect: "manual", ...init })
  /** oauth4webapi's transport: its requests, sent to the server the public origin stands for. */
  const clientFetch = (
    url: string,
    init: oauth.CustomFetchOptions<string, oauth.ProtectedResourceRequestBody | URLSearchParams | string>
  ) =>
    fetch(mapped(url), {
      method: init.method,
      headers: init.headers,
      redirect: init.redirect,
      ...(init.body === undefined || init.body === null ? {} : { body: init.body }),
      ...(init.signal === undefined ? {} : { signal: init.signal })
    })
  const options = { [oauth.allowInsecureRequests]: true, [oauth.customFetch]: clientFetch } as const
  const issuer = new URL(PUBLIC_ORIGIN)
  const as = yield* Effect.promise(async () =>
    oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: "oauth2", ...options })
    )
  )
  return { as, options, fetch: mappedFetch } satisfies OAuthWorld
})

/** A public client registered with RFC 7591. */
export const registerPublic = (world: OAuthWorld, name = "Test app") =>
  Effect.promise(async () =>
    oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(
        world.as,
        {
          client_name: name,
          redirect_uris: [REDIRECT_URI],
          token_endpoint_auth_method: "none",
          grant_types: ["authorization_code", "refresh_token"]
        },
        world.options
      )
    )
  )

/** A confidential client (client_secret_basic) registered with RFC 7591. */
export const registerConfidential = (world: OAuthWorld, name = "Server app") =>
  Effect.promise(async () =>
    oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(
        world.as,
        {
          client_name: name,
          redirect_uris: [REDIRECT_URI],
          token_endpoint_auth_method: "client_secret_basic",
          grant_types: ["authorization_code", "refresh_token"]
        },
        world.options
      )
    )
  )

export interface AuthorizationStart {
  readonly url: URL
  readonly state: string
  readonly codeVerifier: string
}

/** An authorization request with PKCE and state; `extra` adds or overrides parameters. */
export const authorizationUrl = (world: OAuthWorld, clientId: string, extra: Record<string, string> = {}) =>
  Effect.promise(async (): Promise<AuthorizationStart> => {
    const codeVerifier = oauth.generateRandomCodeVerifier()
    const state = oauth.generateRandomState()
    const url = new URL(world.as.authorization_endpoint ?? "")
    url.search = new URLSearchParams({
      response_type: "code",
      client_id: clientId,
      redirect_uri: REDIRECT_URI,
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: "S256",
      scope: "organizations:read",
      resource: API_RESOURCE,
      ...extra
    }).toString()
    return { url, state, codeVerifier }
  })

const entities: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", "#96": "`" }
const unescapeHtml = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|#39|#96);/g, (_, name: string) => entities[name] ?? "")

/** The hidden fields of the consent form, as the page carries them. */
export const hiddenFields = (page: string): Array<[string, string]> =>
  [...page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((match) => [
    unescapeHtml(match[1] ?? ""),
    unescapeHtml(match[2] ?? "")
  ])

/** The ticked checkboxes of a page, as a browser would send them (the consent page's scopes). */
export const checkedBoxes = (page: string): Array<[string, string]> =>
  [...page.matchAll(/<input type="checkbox" id="[^"]*" name="([^"]+)" value="([^"]*)" checked/g)].map(
    (match) => [unescapeHtml(match[1] ?? ""), unescapeHtml(match[2] ?? "")]
  )

/** The organizations the consent page offers (enabled radio buttons only). */
export const offeredOrganizations = (page: string): Array<string> =>
  [...page.matchAll(/<input type="radio" name="organization" value="([^"]+)" required( disabled)?>/g)]
    .filter((match) => match[2] === undefined)
    .map((match) => unescapeHtml(match[1] ?? ""))

export interface Decision {
  readonly organizationId?: string
  readonly decision?: "approve" | "deny"
  /** Change a field of the posted form (to test tampering). */
  readonly tamper?: (form: URLSearchParams) => void
  /** The Origin the browser sends with the decision. */
  readonly origin?: string
}

export interface BrowserAnswer {
  readonly status: number
  readonly location: string | null
  readonly text: string
  readonly headers: Headers
}

/** One request of the person's browser (with their session cookie), following nothing. */
export const browserRequest = (
  world: OAuthWorld,
  person: Account | undefined,
  url: string | URL,
  init: RequestInit = {}
) =>
  Effect.promise(async (): Promise<BrowserAnswer> => {
    const headers = new Headers(init.headers)
    if (person !== undefined) headers.set("cookie", `${COOKIE}=${person.session}`)
    const response = await world.fetch(url, { ...init, headers })
    return {
      status: response.status,
      location: response.headers.get("location"),
      text: await response.text(),
      headers: response.headers
    }
  })

/** The consent page of an authorization request, for a signed-in person. */
export const consentPageFor = (world: OAuthWorld, person: Account, url: URL) =>
  Effect.flatMap(browserRequest(world, person, url), (answer) => {
    if (answer.status !== 200)
      throw new Error(
        `consent page answered ${answer.status}: ${answer.location ?? ""} ${answer.text.slice(0, 500)}`
      )
    return Effect.succeed(answer)
  })

/** Posts the person's decision on a consent page; returns the service's answer. */
export const decide = (world: OAuthWorld, person: Account, page: string, decision: Decision = {}) =>
  Effect.gen(function* () {
    const form = new URLSearchParams([...hiddenFields(page), ...checkedBoxes(page)])
    const organization = decision.organizationId ?? offeredOrganizations(page)[0]
    if (organization !== undefined) form.set("organization", organization)
    form.set("decision", decision.decision ?? "approve")
    decision.tamper?.(form)
    return yield* browserRequest(world, person, `${PUBLIC_ORIGIN}/oauth/authorize`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: decision.origin ?? PUBLIC_ORIGIN
      },
      body: form.toString()
    })
  })

/** The person approves (or denies) on the consent page; returns the callback URL the client gets. */
export const approve = (
  world: OAuthWorld,
  person: Account,
  start: AuthorizationStart,
  decision: Decision = {}
) =>
  Effect.gen(function* () {
    const page = yield* consentPageFor(world, person, start.url)
    const answer = yield* decide(world, person, page.text, decision)
    if (answer.status !== 303 || answer.location === null) {
      throw new Error(`decision answered ${answer.status}: ${answer.text.slice(0, 500)}`)
    }
    return new URL(answer.location)
  })

export interface Flow {
  readonly client: oauth.Client
  readonly auth?: oauth.ClientAuth
  readonly extra?: Record<string, string>
  readonly organizationId?: string
}

/** The whole code flow: authorize, approve as `person`, validate the callback, exchange the code. */
export const codeFlow = (world: OAuthWorld, person: Account, flow: Flow) =>
  Effect.gen(function* () {
    const start = yield* authorizationUrl(world, flow.client.client_id, flow.extra)
    const callback = yield* approve(
      world,
      person,
      start,
      flow.organizationId === undefined ? {} : { organizationId: flow.organizationId }
    )
    return yield* exchange(world, flow, start, callback)
  })

/** Validates a callback (state, iss) and exchanges its code with the PKCE verifier. */
export const exchange = (world: OAuthWorld, flow: Flow, start: AuthorizationStart, callback: URL) =>
  Effect.promise(async () => {
    const params = oauth.validateAuthResponse(world.as, flow.client, callback, start.state)
    const resource = flow.extra?.resource ?? API_RESOURCE
    return oauth.processAuthorizationCodeResponse(
      world.as,
      flow.client,
      await oauth.authorizationCodeGrantRequest(
        world.as,
        flow.client,
        flow.auth ?? oauth.None(),
        params,
        REDIRECT_URI,
        start.codeVerifier,
        { additionalParameters: { resource }, ...world.options }
      )
    )
  })

/** The refresh_token grant. */
export const refresh = (
  world: OAuthWorld,
  client: oauth.Client,
  refreshToken: string,
  auth = oauth.None(),
  extra: Record<string, string> = {}
) =>
  Effect.promise(async () =>
    oauth.processRefreshTokenResponse(
      world.as,
      client,
      await oauth.refreshTokenGrantRequest(world.as, client, auth, refreshToken, {
        additionalParameters: extra,
        ...world.options
      })
    )
  )

/** RFC 7009 revocation. */
export const revoke = (world: OAuthWorld, client: oauth.Client, token: string, auth = oauth.None()) =>
  Effect.promise(async () =>
    oauth.processRevocationResponse(
      await oauth.revocationRequest(world.as, client, auth, token, world.options)
    )
  )

export interface ResourceAnswer {
  readonly status: number
  readonly json: unknown
  /** The parsed WWW-Authenticate challenges, when the answer carried any. */
  readonly challenges: ReadonlyArray<oauth.WWWAuthenticateChallenge>
}

/**
 * A call to the foundation API with an access token, through oauth4webapi (which throws on an answer
 * carrying WWW-Authenticate: the challenge and the answer are taken from the error).
 */
export const callApi = (
  world: OAuthWorld,
  accessToken: string,
  path: string,
  method = "GET",
  body?: unknown
) =>
  Effect.promise(async (): Promise<ResourceAnswer> => {
    const headers = new Headers(body === undefined ? {} : { "content-type": "application/json" })
    const read = async (response: Response, challenges: ReadonlyArray<oauth.WWWAuthenticateChallenge>) => {
      const text = await response.text()
      return { status: response.status, json: text === "" ? undefined : JSON.parse(text), challenges }
    }
    try {
      const response = await oauth.protectedResourceRequest(
        accessToken,
        method,
        new URL(`${PUBLIC_ORIGIN}/api/v1${path}`),
        headers,
        body === undefined ? null : JSON.stringify(body),
        world.options
      )
      return await read(response, [])
    } catch (error) {
      if (error instanceof oauth.WWWAuthenticateChallengeError) return read(error.response, error.cause)
      throw error
    }
  })

export interface OAuthFailure {
  /** The `error` code, `none` when the call succeeded. */
  readonly code: string
  readonly description: string
  readonly status: number
}

/** How an oauth4webapi call failed: its `error` code (a ResponseBodyError, or a 401 with a challenge). */
export const oauthErrorOf = <A, R>(effect: Effect.Effect<A, never, R>) =>
  Effect.map(Effect.exit(effect), (exit): OAuthFailure => {
    if (Exit.isSuccess(exit)) return { code: "none", description: "", status: 200 }
    const error = Option.getOrUndefined(Cause.dieOption(exit.cause))
    if (error instanceof oauth.ResponseBodyError) {
      return { code: error.error, description: error.error_description ?? "", status: error.status }
    }
    if (error instanceof oauth.WWWAuthenticateChallengeError) {
      const challenge = error.cause[0]
      return {
        code: String(challenge?.parameters.error ?? challenge?.scheme ?? ""),
        description: String(challenge?.parameters.error_description ?? ""),
        status: error.status
      }
    }
    if (error instanceof oauth.AuthorizationResponseError) {
      return { code: error.error, description: error.error_description ?? "", status: 0 }
    }
    return { code: `unexpected: ${String(error)}`, description: "", status: -1 }
  })
