// Starts the real service with the foundation only, on a fresh database, with its log captured, and
// offers the calls tests make again and again (sign up, call with a session or a token).
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import type * as Scope from "effect/Scope"
import { request, type TestResponse, testServer } from "../../support/TestServer.js"
import { freshPostgresDatabase, withClient } from "./Backends.js"

export const PUBLIC_ORIGIN = "http://foundation.test"
export const COOKIE = "__Secure-service.session_token"

/** Every log line of the service, as text (the outbox transport writes its messages there). */
export const logLines: Array<string> = []

const capturingLogger = Logger.make(({ message }) => {
  const parts = Array.isArray(message) ? message : [message]
  logLines.push(parts.map((part) => (typeof part === "string" ? part : JSON.stringify(part))).join(" "))
})

/** The service with the foundation only, on the database chosen by `database`, with `env` on top. */
export const foundationServer = (
  database: Effect.Effect<Record<string, string>, never, Scope.Scope>,
  env: Record<string, string> = {}
) =>
  Layer.unwrapScoped(
    Effect.map(database, (databaseEnv) =>
      testServer({
        CATALOG_ENABLED: "false",
        PUBLIC_ORIGIN,
        OUTBOX_POLL_MS: "50",
        // Tests sign many accounts up from one address; the per-address limit has tests of its own.
        AUTH_ADDRESS_RATE_LIMIT: "1000000",
        ...databaseEnv,
        ...env
      })
    )
  ).pipe(Layer.provide(Logger.replace(Logger.defaultLogger, capturingLogger)))

/** The URL of the PostgreSQL database a server started by `postgresFoundationServer` uses. */
export class TestDatabaseUrl extends Context.Tag("TestDatabaseUrl")<TestDatabaseUrl, string>() {}

/** The service on a fresh PostgreSQL database, with that database's URL for direct inspection. */
export const postgresFoundationServer = (env: Record<string, string> = {}) =>
  Layer.unwrapScoped(
    Effect.map(freshPostgresDatabase, ({ url }) =>
      Layer.merge(
        foundationServer(Effect.succeed({ DATABASE_URL: url }), env),
        Layer.succeed(TestDatabaseUrl, url)
      )
    )
  )

/** Runs SQL on the test database directly (to age a row, or to look at what is stored). */
export const sqlQuery = (text: string, values: ReadonlyArray<unknown> = []) =>
  Effect.flatMap(TestDatabaseUrl, (url) =>
    withClient(
      url,
      async (client) => (await client.query(text, [...values])).rows as Array<Record<string, unknown>>
    )
  )

export interface CallOptions {
  readonly method?: string
  readonly body?: unknown
  readonly session?: string
  readonly bearer?: string
  /** Defaults to the public origin for session writes; `null` sends none. */
  readonly origin?: string | null
  readonly headers?: Record<string, string>
}

/** One JSON request to /api/v1`path`. */
export const call = (path: string, options: CallOptions = {}) => {
  const method = options.method ?? (options.body === undefined ? "GET" : "POST")
  const headers: Record<string, string> = { ...options.headers }
  if (options.body !== undefined) headers["content-type"] = "application/json"
  if (options.session !== undefined) headers.cookie = `${COOKIE}=${options.session}`
  if (options.bearer !== undefined) headers.authorization = `Bearer ${options.bearer}`
  const origin = options.origin === undefined ? (method === "GET" ? null : PUBLIC_ORIGIN) : options.origin
  if (origin !== null) headers.origin = origin
  return request(`/api/v1${path}`, {
    method,
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) })
  })
}

/** The session token set by a sign-up or sign-in answer. */
export const sessionFrom = (response: TestResponse): string => {
  const cookie = response.headers.get("set-cookie") ?? ""
  const match = new RegExp(`^${COOKIE.replace(".", "\\.")}=([^;]*)`).exec(cookie)
  if (match?.[1] === undefined || match[1] === "")
    throw new Error(`No session cookie in ${response.status} answer`)
  return match[1]
}

let counter = 0
/** An email address no other test uses. */
export const uniqueEmail = (label = "user") =>
  `${label.toLowerCase().replace(/[^a-z0-9-]+/g, "-")}.${process.pid}.${Date.now()}.${counter++}@example.com`

export interface Account {
  readonly email: string
  readonly password: string
  readonly session: string
  readonly userId: string
}

/** Signs a new account up and returns its session. */
export const signUp = (label = "user", password = "correct horse battery") =>
  Effect.gen(function* () {
    const email = uniqueEmail(label)
    const response = yield* call("/auth/sign-up", { body: { email, password, name: label } })
    if (response.status !== 200) throw new Error(`sign-up answered ${response.status}: ${response.text}`)
    const { user } = response.json as { user: { id: string } }
    return { email, password, session: sessionFrom(response), userId: user.id } satisfies Account
  })

/** Creates an organization owned by the account (and makes it the session's active one). */
export const createOrganization = (account: Account, name = "Acme") =>
  Effect.gen(function* () {
    const response = yield* call("/organizations", { session: account.session, body: { name } })
    if (response.status !== 200)
      throw new Error(`organizations.create answered ${response.status}: ${response.text}`)
    return response.json as { id: string; name: string; slug: string }
  })

/** Creates an API token for the organization with the given scopes. */
export const createToken = (
  account: Account,
  organizationId: string,
  scopes: ReadonlyArray<string> = ["organizations:read"]
) =>
  Effect.gen(function* () {
    const response = yield* call(`/organizations/${organizationId}/tokens`, {
      session: account.session,
      body: { name: "ci", scopes, expiresInDays: 30 }
    })
    if (response.status !== 200)
      throw new Error(`tokens.create answered ${response.status}: ${response.text}`)
    return response.json as { id: string; token: string }
  })

/** Waits (briefly) for the outbox to log a message to `recipient`, and returns the token of its link. */
export const linkTokenFor = (recipient: string) =>
  Effect.gen(function* () {
    for (let attempt = 0; attempt < 100; attempt++) {
      const line = logLines.find(
        (text) => text.includes(` to ${recipient}: `) && text.includes("/verify-email?token=")
      )
      const token = line === undefined ? undefined : /\/verify-email\?token=([^\s"]+)/.exec(line)?.[1]
      if (token !== undefined) return decodeURIComponent(token)
      yield* Effect.sleep("50 millis")
    }
    throw new Error(`No outbox message to ${recipient}`)
  })

/** Follows the verification link the outbox sent at sign-up, so the account's email is verified. */
export const verifyEmail = (account: Account) =>
  Effect.gen(function* () {
    const token = yield* linkTokenFor(account.email)
    const response = yield* call("/auth/verify-email", { body: { token } })
    if (response.status !== 200) throw new Error(`verify-email answered ${response.status}: ${response.text}`)
  })

/** Signs a new account up and verifies its email. */
export const signUpVerified = (label = "user") =>
  Effect.gen(function* () {
    const account = yield* signUp(label)
    yield* verifyEmail(account)
    return account
  })

/** Waits (briefly) for the outbox to log an invitation to `recipient`, and returns its id from the link. */
export const invitationLinkFor = (recipient: string, invitationId?: string) =>
  Effect.gen(function* () {
    for (let attempt = 0; attempt < 100; attempt++) {
      for (const line of logLines) {
        if (!line.startsWith("Outbox invitation ") || !line.includes(` to ${recipient}: `)) continue
        const id = /\/accept-invitation\?invitation=([^\s"]+)/.exec(line)?.[1]
        if (id !== undefined && (invitationId === undefined || decodeURIComponent(id) === invitationId))
          return { line, id: decodeURIComponent(id) }
      }
      yield* Effect.sleep("50 millis")
    }
    throw new Error(`No invitation message to ${recipient}`)
  })

export interface Invitation {
  readonly id: string
  readonly email: string
  readonly role: string
  readonly status: string
  readonly expiresAt: string
}

/** Invites `email` with `role` on behalf of `inviter` (who must be allowed to). */
export const invite = (inviter: Account, organizationId: string, email: string, role = "member") =>
  Effect.gen(function* () {
    const response = yield* call(`/organizations/${organizationId}/invitations`, {
      session: inviter.session,
      body: { email, role }
    })
    if (response.status !== 200)
      throw new Error(`invitations.create answered ${response.status}: ${response.text}`)
    return response.json as Invitation
  })

export interface Joined {
  readonly account: Account
  readonly memberId: string
}

/** A new verified account that joins the organization with `role`, by invitation and acceptance. */
export const join = (owner: Account, organizationId: string, role = "member", label: string = role) =>
  Effect.flatMap(signUpVerified(label), (account) => admit(owner, organizationId, account, role))

/** A verified account (new, or one removed before) joins the organization by invitation and acceptance. */
export const admit = (owner: Account, organizationId: string, account: Account, role = "member") =>
  Effect.gen(function* () {
    const invitation = yield* invite(owner, organizationId, account.email, role)
    const accepted = yield* call(`/invitations/${invitation.id}/accept`, {
      session: account.session,
      method: "POST"
    })
    if (accepted.status !== 200)
      throw new Error(`invitations.accept answered ${accepted.status}: ${accepted.text}`)
    return { account, memberId: yield* memberIdOf(owner, organizationId, account.userId) } satisfies Joined
  })

export interface MemberItem {
  readonly id: string
  readonly userId: string
  readonly name: string
  readonly email: string
  readonly role: string
}

/** Every member of the organization, following the cursor through all pages. */
export const allMembers = (viewer: Account, organizationId: string) =>
  Effect.gen(function* () {
    const members: Array<MemberItem> = []
    let cursor = ""
    for (;;) {
      const response = yield* call(`/organizations/${organizationId}/members?limit=100&cursor=${cursor}`, {
        session: viewer.session
      })
      if (response.status !== 200)
        throw new Error(`members.list answered ${response.status}: ${response.text}`)
      const page = response.json as { items: Array<MemberItem>; nextCursor: string | null }
      members.push(...page.items)
      if (page.nextCursor === null) return members
      cursor = page.nextCursor
    }
  })

/** The membership id of `userId` in the organization, as `viewer` sees it. */
export const memberIdOf = (viewer: Account, organizationId: string, userId: string) =>
  Effect.gen(function* () {
    const member = (yield* allMembers(viewer, organizationId)).find((item) => item.userId === userId)
    if (member === undefined) throw new Error(`${userId} is not a member of ${organizationId}`)
    return member.id
  })

/** True when `json` is the error envelope with this status (and code, when given). */
export const isEnvelope = (json: unknown, status: number): boolean => {
  if (typeof json !== "object" || json === null) return false
  const envelope = json as Record<string, unknown>
  return (
    envelope.defined === true &&
    envelope.status === status &&
    typeof envelope.code === "string" &&
    typeof envelope.message === "string" &&
    Object.keys(envelope).every((key) => ["defined", "code", "status", "message", "data"].includes(key))
  )
}
