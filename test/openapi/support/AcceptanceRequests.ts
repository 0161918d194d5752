// The acceptance requests of the REST tests, as one list per API that any client can replay: the
// catalog's of test/catalog/rest.test.ts (details, lists, searches, cursors, conditional requests,
// errors, batch) on the fixture podcast, and the foundation's main operations of test/foundation/*.
// Each step says the status the server answers; a step the document itself refuses (a value out of
// its bounds) says so, since a validating proxy rightly stops it before the server sees it.
import * as Effect from "effect/Effect"
import type { TestResponse } from "../../support/TestServer.js"

export interface Step {
  readonly name: string
  readonly method?: string
  readonly path: string
  readonly headers?: Readonly<Record<string, string>>
  /** Sent as JSON unless it is a string. */
  readonly body?: unknown
  readonly status: number
  /** The document's schemas already refuse it (the server answers 400). */
  readonly refusedByDocument?: boolean
}

export type Run = (step: Step) => Effect.Effect<TestResponse>

const jsonOf = (response: TestResponse): Record<string, unknown> =>
  typeof response.json === "object" && response.json !== null
    ? (response.json as Record<string, unknown>)
    : {}

const nextCursorOf = (response: TestResponse) => encodeURIComponent(String(jsonOf(response).nextCursor ?? ""))

/** The catalog's acceptance requests, on the fixture podcast. */
export const catalogAcceptance = (run: Run) =>
  Effect.gen(function* () {
    const get = (name: string, path: string, status = 200, headers: Record<string, string> = {}) =>
      run({ name, path, status, headers })
    const refused = (name: string, path: string) => run({ name, path, status: 400, refusedByDocument: true })

    yield* get("health", "/health")
    yield* get("episodes newest first", "/v1/episodes")
    const first = yield* get("first page of four", "/v1/episodes?limit=4")
    yield* get("next page by cursor", `/v1/episodes?limit=4&cursor=${nextCursorOf(first)}`)
    yield* get("ranked search", "/v1/episodes?q=fog%20signals")
    yield* get("search by a person", "/v1/episodes?q=ada%20marsh")
    yield* get("search by a word's start", "/v1/episodes?q=breakwat")
    yield* get("session filter", "/v1/episodes?session=1")
    yield* get("search in a session", "/v1/episodes?q=ada&session=2")
    yield* get("search without a match", "/v1/episodes?q=zeppelin")
    for (const query of [
      "limit=0",
      "limit=51",
      "limit=1.5",
      "limit=ten",
      "limit=1&limit=2",
      "session=first"
    ]) {
      yield* refused(`bad ${query}`, `/v1/episodes?${query}`)
    }
    yield* refused("session 0", "/v1/episodes?session=0")
    yield* refused("search words too long", `/v1/episodes?q=${"x".repeat(501)}`)
    for (const query of ["sort=title", "q=!!", "q=a"])
      yield* get(`bad ${query}`, `/v1/episodes?${query}`, 400)
    const two = yield* get("page of two", "/v1/episodes?limit=2")
    yield* get("cursor of another query", `/v1/episodes?limit=2&session=1&cursor=${nextCursorOf(two)}`, 400)
    yield* get("cursor never issued", "/v1/episodes?cursor=not-a-cursor", 400)

    const detail = yield* get("episode detail", "/v1/episodes/4")
    const etag = detail.headers.get("etag") ?? ""
    yield* get("detail revalidated", "/v1/episodes/4", 304, { "if-none-match": etag })
    yield* get("detail revalidated weakly", "/v1/episodes/4", 304, { "if-none-match": `W/${etag}` })
    yield* get("detail revalidated by a list", "/v1/episodes/4", 304, { "if-none-match": `"nope", ${etag}` })
    yield* get("detail revalidated by *", "/v1/episodes/4", 304, { "if-none-match": "*" })
    yield* get("detail with a stale tag", "/v1/episodes/4", 200, { "if-none-match": '"stale"' })
    yield* get("detail compressed", "/v1/episodes/4", 200, { "accept-encoding": "gzip" })
    yield* get("no acceptable coding", "/v1/episodes/4", 406, { "accept-encoding": "identity;q=0" })
    yield* get("unknown episode", "/v1/episodes/999", 404)
    yield* refused("slug that cannot exist", "/v1/episodes/abc")

    yield* get("transcript", "/v1/transcripts/2")
    yield* get("episode without a transcript", "/v1/transcripts/-1", 404)
    yield* get("transcript of an unknown episode", "/v1/transcripts/77", 404)
    yield* get("transcript search", "/v1/transcripts/search?q=diaphone%20horn")
    yield* get("transcript search without timing", "/v1/transcripts/search?q=thirty%20seconds%20fog")
    yield* get("transcript search in a session", "/v1/transcripts/search?q=the&session=1&limit=50")
    const hits = yield* get("transcript hits, first page", "/v1/transcripts/search?q=the&limit=2")
    yield* get(
      "transcript hits, next page",
      `/v1/transcripts/search?q=the&limit=2&cursor=${nextCursorOf(hits)}`
    )
    yield* refused("transcript search without q", "/v1/transcripts/search")
    yield* refused("transcript search with an empty q", "/v1/transcripts/search?q=")
    yield* refused("transcript search with limit 0", "/v1/transcripts/search?q=lens&limit=0")
    for (const query of ["q=a", "q=%20-%20", "q=lens&extra=1"]) {
      yield* get(`bad transcript search ${query}`, `/v1/transcripts/search?${query}`, 400)
    }

    const manifest = yield* get("snapshot manifest", "/v1/snapshot")
    const index = jsonOf(manifest).index
    const file = Array.isArray(index) ? String(index[0]) : ""
    // OpenAPI tools send a path parameter's slashes percent-encoded; the server takes both forms.
    yield* get("snapshot file", `/snapshot/${encodeURIComponent(file)}`)
    yield* get("snapshot file, gzip copy", `/snapshot/${encodeURIComponent(`${file}.gz`)}`)
    yield* get(
      "snapshot file not in the manifest",
      `/snapshot/${encodeURIComponent("episodes/nope.json")}`,
      404
    )

    const batch = (name: string, body: unknown, status: number, refusedByDocument = false) =>
      run({ name, method: "POST", path: "/v1/batch", body, status, refusedByDocument })
    yield* batch(
      "batch answered in order",
      {
        requests: [
          { id: "detail", path: "/v1/episodes/4" },
          { id: "missing", path: "/v1/episodes/404" },
          { id: "search", path: "/v1/transcripts/search?q=fresnel" },
          { id: "bad", path: "/v1/episodes?limit=0" },
          { id: "outside", path: "/health" },
          { id: "nested", path: "/v1/batch" },
          { id: "unknown", path: "/v1/nothing" }
        ]
      },
      200
    )
    const many = Array.from({ length: 21 }, (_, i) => ({ id: `r${i}`, path: "/v1/episodes/1" }))
    yield* batch("batch of 21", { requests: many }, 413)
    yield* batch("empty batch", { requests: [] }, 400, true)
    yield* batch("batch item without an id", { requests: [{ id: "", path: "/v1/episodes/1" }] }, 400, true)
    yield* batch(
      "batch item id too long",
      { requests: [{ id: "x".repeat(65), path: "/v1/episodes/1" }] },
      400,
      true
    )
    yield* batch("batch with an unknown field", { requests: [], more: 1 }, 400, true)
    yield* batch("batch with malformed JSON", "{", 400)

    yield* get("sandbox", "/sandbox")
    yield* get("sandbox page", "/sandbox", 200, { accept: "text/html,application/xhtml+xml" })
    yield* get("ask by query", "/ask?q=lighthouse%20keeper")
    yield* run({
      name: "ask by body",
      method: "POST",
      path: "/ask",
      body: { question: "Who hosts the show?" },
      status: 200
    })
    yield* get("unknown route", "/v2/episodes", 404)
    yield* run({ name: "wrong method", method: "DELETE", path: "/v1/episodes/4", status: 405 })
  })

const origin = (publicOrigin: string) => ({ origin: publicOrigin })

/** The foundation's main operations, by two people; `linkToken` reads the verification link sent. */
export const foundationAcceptance = (
  run: Run,
  options: {
    readonly publicOrigin: string
    readonly cookieName: string
    readonly linkToken: (email: string) => Effect.Effect<string>
    readonly uniqueEmail: (label: string) => string
  }
) =>
  Effect.gen(function* () {
    const api = "/api/v1"
    const write = origin(options.publicOrigin)
    const sessionOf = (response: TestResponse) =>
      new RegExp(`${options.cookieName.replace(".", "\\.")}=([^;]*)`).exec(
        response.headers.get("set-cookie") ?? ""
      )?.[1] ?? ""
    const as = (session: string) => ({ cookie: `${options.cookieName}=${session}` })
    const password = "correct horse battery"

    const signUp = (label: string) =>
      Effect.gen(function* () {
        const email = options.uniqueEmail(label)
        const response = yield* run({
          name: `${label} signs up`,
          method: "POST",
          path: `${api}/auth/sign-up`,
          headers: write,
          body: { email, password, name: label },
          status: 200
        })
        const token = yield* options.linkToken(email)
        yield* run({
          name: `${label} verifies the email`,
          method: "POST",
          path: `${api}/auth/verify-email`,
          headers: write,
          body: { token },
          status: 200
        })
        return { email, session: sessionOf(response) }
      })

    const owner = yield* signUp("Owner")
    const session = as(owner.session)
    yield* run({
      name: "sign-up with a short password",
      method: "POST",
      path: `${api}/auth/sign-up`,
      headers: write,
      body: { email: options.uniqueEmail("short"), password: "short", name: "Short" },
      status: 400,
      refusedByDocument: true
    })
    yield* run({
      name: "verification with a token never sent",
      method: "POST",
      path: `${api}/auth/verify-email`,
      headers: write,
      body: { token: "not-a-token" },
      status: 400
    })
    yield* run({
      name: "sign-in",
      method: "POST",
      path: `${api}/auth/sign-in`,
      headers: write,
      body: { email: owner.email, password },
      status: 200
    })
    yield* run({
      name: "sign-in with a wrong password",
      method: "POST",
      path: `${api}/auth/sign-in`,
      headers: write,
      body: { email: owner.email, password: "wrong password" },
      status: 401
    })
    yield* run({ name: "profile", path: `${api}/profile`, headers: session, status: 200 })
    yield* run({ name: "profile without a credential", path: `${api}/profile`, status: 401 })
    yield* run({
      name: "profile update",
      method: "PATCH",
      path: `${api}/profile`,
      headers: { ...session, ...write },
      body: { name: "Owner", preferredName: "O", theme: "dark" },
      status: 200
    })
    yield* run({ name: "sessions", path: `${api}/security/sessions`, headers: session, status: 200 })
    yield* run({ name: "context", path: `${api}/context`, headers: session, status: 200 })
    yield* run({
      name: "credential context",
      path: `${api}/credential-context`,
      headers: session,
      status: 200
    })

    const created = yield* run({
      name: "organization created",
      method: "POST",
      path: `${api}/organizations`,
      headers: { ...session, ...write },
      body: { name: "Acme" },
      status: 200
    })
    const organization = jsonOf(created)
    const orgPath = `${api}/organizations/${String(organization.id)}`
    yield* run({ name: "organizations", path: `${api}/organizations`, headers: session, status: 200 })
    yield* run({ name: "organization", path: orgPath, headers: session, status: 200 })
    yield* run({
      name: "unknown organization",
      path: `${api}/organizations/org_unknown`,
      headers: session,
      status: 404
    })
    yield* run({
      name: "organization updated",
      method: "PATCH",
      path: orgPath,
      headers: { ...session, ...write },
      body: {
        version: organization.version,
        name: "Acme Ltd",
        companyName: "Acme Ltd",
        website: "https://acme.example"
      },
      status: 200
    })
    yield* run({
      name: "stale update",
      method: "PATCH",
      path: orgPath,
      headers: { ...session, ...write },
      body: { version: organization.version, name: "Acme again" },
      status: 409
    })
    yield* run({
      name: "active organization switched",
      method: "POST",
      path: `${api}/context/organization`,
      headers: { ...session, ...write },
      body: { organizationId: organization.id },
      status: 200
    })

    const token = jsonOf(
      yield* run({
        name: "token created",
        method: "POST",
        path: `${orgPath}/tokens`,
        headers: { ...session, ...write },
        body: { name: "ci", scopes: ["organizations:read"], expiresInDays: 30 },
        status: 200
      })
    )
    yield* run({ name: "tokens", path: `${orgPath}/tokens`, headers: session, status: 200 })
    yield* run({
      name: "organization read with the token",
      path: orgPath,
      headers: { authorization: `Bearer ${String(token.token)}` },
      status: 200
    })
    yield* run({
      name: "token revoked",
      method: "DELETE",
      path: `${orgPath}/tokens/${String(token.id)}`,
      headers: { ...session, ...write },
      status: 200
    })

    const member = yield* signUp("Member")
    const invitation = jsonOf(
      yield* run({
        name: "invitation created",
        method: "POST",
        path: `${orgPath}/invitations`,
        headers: { ...session, ...write },
        body: { email: member.email, role: "member" },
        status: 200
      })
    )
    yield* run({ name: "invitations", path: `${orgPath}/invitations`, headers: session, status: 200 })
    yield* run({
      name: "invitation accepted",
      method: "POST",
      path: `${api}/invitations/${String(invitation.id)}/accept`,
      headers: { ...as(member.session), ...write },
      status: 200
    })
    const members = jsonOf(
      yield* run({ name: "members", path: `${orgPath}/members`, headers: session, status: 200 })
    )
    const joined = (Array.isArray(members.items) ? members.items : []).find(
      (item: { readonly email?: unknown }) => item.email === member.email
    ) as { readonly id?: unknown } | undefined
    yield* run({
      name: "member made admin",
      method: "PATCH",
      path: `${orgPath}/members/${String(joined?.id)}`,
      headers: { ...session, ...write },
      body: { role: "admin" },
      status: 200
    })
    yield* run({
      name: "member removed",
      method: "DELETE",
      path: `${orgPath}/members/${String(joined?.id)}`,
      headers: { ...session, ...write },
      status: 200
    })
    const second = jsonOf(
      yield* run({
        name: "second invitation",
        method: "POST",
        path: `${orgPath}/invitations`,
        headers: { ...session, ...write },
        body: { email: member.email, role: "admin" },
        status: 200
      })
    )
    yield* run({
      name: "invitation rejected",
      method: "POST",
      path: `${api}/invitations/${String(second.id)}/reject`,
      headers: { ...as(member.session), ...write },
      status: 200
    })
    const third = jsonOf(
      yield* run({
        name: "third invitation",
        method: "POST",
        path: `${orgPath}/invitations`,
        headers: { ...session, ...write },
        body: { email: options.uniqueEmail("Guest"), role: "member" },
        status: 200
      })
    )
    yield* run({
      name: "invitation revoked",
      method: "DELETE",
      path: `${orgPath}/invitations/${String(third.id)}`,
      headers: { ...session, ...write },
      status: 200
    })

    yield* run({
      name: "email change asked",
      method: "POST",
      path: `${api}/profile/email`,
      headers: { ...session, ...write },
      body: { email: options.uniqueEmail("Renamed") },
      status: 200
    })
    yield* run({
      name: "password changed",
      method: "POST",
      path: `${api}/security/password`,
      headers: { ...session, ...write },
      body: { currentPassword: password, newPassword: "another horse battery" },
      status: 200
    })
    yield* run({
      name: "signed out",
      method: "POST",
      path: `${api}/auth/sign-out`,
      headers: { ...as(member.session), ...write },
      status: 200
    })
  })
