// `GET /api/v1/openapi.json` (extensions §7, base contract §9) and the reference page: OpenAPI
// 3.1.1, version 1.0.0, exactly the contract's operationIds on their paths, both security schemes
// with each operation's credentials, every error response in the envelope, and the resources'
// fields and bounds as the contract writes them.
import { describe, expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { request } from "../support/TestServer.js"
import { freshDataDir } from "./support/Backends.js"
import { connectionOperationIds, contractOperationIds, notesOperationIds } from "./support/Contract.js"
import { foundationServer, isEnvelope, PUBLIC_ORIGIN } from "./support/FoundationClient.js"

type Json = Record<string, unknown>

/** Method, path and credentials of every operation, as the contracts write them. */
const routes: Record<
  string,
  readonly [method: string, path: string, credentials: "none" | "session" | "both"]
> = {
  "auth.signUp": ["post", "/auth/sign-up", "none"],
  "auth.signIn": ["post", "/auth/sign-in", "none"],
  "auth.signOut": ["post", "/auth/sign-out", "session"],
  "auth.verifyEmail": ["post", "/auth/verify-email", "none"],
  "security.sessions": ["get", "/security/sessions", "session"],
  "security.revokeSession": ["delete", "/security/sessions/{sessionId}", "session"],
  "security.changePassword": ["post", "/security/password", "session"],
  "profile.get": ["get", "/profile", "session"],
  "profile.update": ["patch", "/profile", "session"],
  "profile.changeEmail": ["post", "/profile/email", "session"],
  "context.credential": ["get", "/credential-context", "both"],
  "context.get": ["get", "/context", "session"],
  "organizations.create": ["post", "/organizations", "session"],
  "organizations.list": ["get", "/organizations", "session"],
  "organizations.get": ["get", "/organizations/{organizationId}", "both"],
  "organizations.update": ["patch", "/organizations/{organizationId}", "both"],
  "organizations.switch": ["post", "/context/organization", "session"],
  "members.list": ["get", "/organizations/{organizationId}/members", "session"],
  "members.updateRole": ["patch", "/organizations/{organizationId}/members/{memberId}", "session"],
  "members.remove": ["delete", "/organizations/{organizationId}/members/{memberId}", "session"],
  "invitations.list": ["get", "/organizations/{organizationId}/invitations", "session"],
  "invitations.create": ["post", "/organizations/{organizationId}/invitations", "session"],
  "invitations.revoke": ["delete", "/organizations/{organizationId}/invitations/{invitationId}", "session"],
  "invitations.accept": ["post", "/invitations/{invitationId}/accept", "session"],
  "invitations.reject": ["post", "/invitations/{invitationId}/reject", "session"],
  "tokens.create": ["post", "/organizations/{organizationId}/tokens", "session"],
  "tokens.list": ["get", "/organizations/{organizationId}/tokens", "session"],
  "tokens.revoke": ["delete", "/organizations/{organizationId}/tokens/{tokenId}", "session"],
  "connections.list": ["get", "/connections", "session"],
  "connections.revoke": ["delete", "/connections/{connectionId}", "session"],
  "organizations.connections": ["get", "/organizations/{organizationId}/connections", "session"],
  "organizations.revokeConnection": [
    "delete",
    "/organizations/{organizationId}/connections/{connectionId}",
    "session"
  ],
  "notes.list": ["get", "/organizations/{organizationId}/notes", "both"],
  "notes.delete": ["delete", "/organizations/{organizationId}/notes/{noteId}", "both"]
}

/** The scope an OAuth access token needs on each operation open to bearer credentials. */
const oauthScopes: Record<string, ReadonlyArray<string>> = {
  "organizations.get": ["organizations:read"],
  "organizations.update": ["organizations:write"],
  "notes.list": ["organizations:read"],
  "notes.delete": ["organizations:write"]
}

const security = (id: string, credentials: "none" | "session" | "both") =>
  credentials === "none"
    ? []
    : credentials === "session"
      ? [{ session: [] }]
      : [{ bearer: [] }, { session: [] }, { oauth2: oauthScopes[id] ?? [] }]

const fetchDocument = Effect.map(request("/api/v1/openapi.json"), (response) => {
  expect(response.status).toBe(200)
  return response.json as Json
})

/** The node at `keys` under `value` (a test failure, not a crash, when one is missing). */
const at = (value: unknown, ...keys: ReadonlyArray<string>): Json =>
  keys.reduce<Json>((node, key) => {
    const next = node[key]
    expect(next, keys.join(".")).toBeTypeOf("object")
    return next as Json
  }, value as Json)

/** Resolves `$ref`s to components. */
const resolve = (document: Json, schema: unknown): Json => {
  const node = schema as Json
  if (typeof node.$ref !== "string") return node
  const name = node.$ref.replace("#/components/schemas/", "")
  return ((document.components as Json).schemas as Json)[name] as Json
}

const operations = (document: Json) =>
  Object.entries(document.paths as Json).flatMap(([path, item]) =>
    Object.entries(item as Json).map(([method, operation]) => ({
      path,
      method,
      operation: operation as Json
    }))
  )

describe("the foundation's OpenAPI document", () => {
  layer(foundationServer(Effect.map(freshDataDir, (dir) => ({ DATA_DIR: dir }))), {
    timeout: 120_000,
    excludeTestServices: true
  })((it) => {
    it.effect("is OpenAPI 3.1.1, version 1.0.0, with exactly the contract's operations on their paths", () =>
      Effect.gen(function* () {
        const response = yield* request("/api/v1/openapi.json")
        expect(response.headers.get("content-type")).toContain("application/json")
        expect(response.headers.get("etag")).toMatch(/^"/)
        const document = response.json as Json
        expect(document.openapi).toBe("3.1.1")
        expect((document.info as Json).version).toBe("1.0.0")
        const found = operations(document)
        expect(found.map(({ operation }) => operation.operationId).sort()).toEqual(
          [...contractOperationIds, ...connectionOperationIds, ...notesOperationIds].sort()
        )
        for (const { path, method, operation } of found) {
          const [expectedMethod, expectedPath] = routes[String(operation.operationId)] ?? []
          expect(`${method} ${path}`, String(operation.operationId)).toBe(
            `${expectedMethod} /api/v1${expectedPath}`
          )
        }
        expect(response.text).not.toContain("HttpApiDecodeError")
      })
    )

    it.effect("declares the security schemes and, per operation, the credentials it accepts", () =>
      Effect.gen(function* () {
        const document = yield* fetchDocument
        expect((document.components as Json).securitySchemes).toEqual({
          bearer: expect.objectContaining({ type: "http", scheme: "bearer" }),
          session: expect.objectContaining({
            type: "apiKey",
            in: "cookie",
            name: "__Secure-service.session_token"
          }),
          oauth2: expect.objectContaining({ type: "oauth2" })
        })
        expect(document.security).toEqual([{ bearer: [] }, { session: [] }, { oauth2: [] }])
        for (const { operation } of operations(document)) {
          const id = String(operation.operationId)
          const credentials = routes[id]?.[2] ?? "none"
          expect(operation.security, id).toEqual(security(id, credentials))
        }
      })
    )

    it.effect("declares the oauth2 scheme as the authorization code flow with its URLs and scopes", () =>
      Effect.gen(function* () {
        const document = yield* fetchDocument
        const oauth2 = at(document, "components", "securitySchemes", "oauth2")
        expect(at(oauth2, "flows")).toEqual({
          authorizationCode: {
            authorizationUrl: "/oauth/authorize",
            tokenUrl: "/oauth/token",
            refreshUrl: "/oauth/token",
            scopes: {
              "organizations:read": expect.any(String),
              "organizations:write": expect.any(String)
            }
          }
        })
        // Relative URLs resolve against the document's server: the origin the service answers from.
        expect(document.servers).toEqual([expect.objectContaining({ url: PUBLIC_ORIGIN })])
      })
    )

    it.effect(
      "documents every error response in the envelope, and the statuses each operation can give",
      () =>
        Effect.gen(function* () {
          const document = yield* fetchDocument
          for (const { operation } of operations(document)) {
            const id = String(operation.operationId)
            const responses = operation.responses as Json
            const statuses = Object.keys(responses)
            expect(statuses, id).toContain("200")
            expect(statuses, id).toContain("400")
            expect(statuses, id).toContain("503")
            if (routes[id]?.[2] !== "none")
              expect(statuses, id).toEqual(expect.arrayContaining(["401", "403", "429"]))
            for (const [status, response] of Object.entries(responses)) {
              if (status.startsWith("2")) continue
              const schema = (((response as Json).content as Json)["application/json"] as Json).schema as Json
              const alternatives = Array.isArray(schema.anyOf) ? schema.anyOf : [schema]
              for (const alternative of alternatives) {
                const envelope = resolve(document, alternative)
                expect(envelope.required, `${id} ${status}`).toEqual(["defined", "code", "status", "message"])
                expect(Object.keys(envelope.properties as Json).sort()).toEqual([
                  "code",
                  "data",
                  "defined",
                  "message",
                  "status"
                ])
                expect(((envelope.properties as Json).status as Json).enum).toEqual([Number(status)])
              }
            }
          }
          const byId = Object.fromEntries(
            operations(document).map(({ operation }) => [operation.operationId, operation])
          )
          expect(Object.keys(byId["organizations.update"]?.responses as Json)).toEqual(
            expect.arrayContaining(["403", "404", "409"])
          )
          for (const id of [
            "invitations.create",
            "invitations.accept",
            "invitations.revoke",
            "organizations.create"
          ]) {
            expect(Object.keys(byId[id]?.responses as Json), id).toContain("409")
          }
        })
    )

    it.effect("describes the resources with exactly the contract's fields and bounds", () =>
      Effect.gen(function* () {
        const document = yield* fetchDocument
        const schemas = (document.components as Json).schemas as Record<string, Json>
        const organizationFields = [
          "id",
          "name",
          "slug",
          "companyName",
          "website",
          "phone",
          "address",
          "version"
        ]
        expect(schemas.Organization?.required).toEqual(organizationFields)
        expect(schemas.OrganizationWithRole?.required).toEqual([...organizationFields, "role"])
        expect(schemas.Member?.required).toEqual(["id", "userId", "name", "email", "role"])
        expect(schemas.Invitation?.required).toEqual(["id", "email", "role", "status", "expiresAt"])
        const invitation = schemas.Invitation?.properties as Record<string, Json>
        expect(invitation.status?.enum).toEqual(["pending", "accepted", "rejected", "revoked", "expired"])
        expect(invitation.role?.enum).toEqual(["owner", "admin", "member"])
        const byId = Object.fromEntries(
          operations(document).map(({ operation }) => [operation.operationId, operation])
        )
        const update = at(
          byId["organizations.update"],
          "requestBody",
          "content",
          "application/json",
          "schema"
        )
        expect(update.required).toEqual(["version", "name"])
        const fields = update.properties as Record<string, Json>
        expect(fields.version).toMatchObject({ minimum: 0, maximum: 9007199254740991 })
        expect(fields.name).toMatchObject({ minLength: 1, maxLength: 120 })
        expect(fields.companyName).toMatchObject({ maxLength: 160 })
        expect(fields.phone).toMatchObject({ maxLength: 40 })
        expect(fields.address).toMatchObject({ maxLength: 500 })
        expect(JSON.stringify(fields.website)).toContain('"format":"uri"')
        const list = byId["members.list"]?.parameters as Array<Json>
        expect(
          list.map((parameter) => `${parameter.in}:${parameter.name}:${parameter.required}`).sort()
        ).toEqual(["path:organizationId:true", "query:cursor:false", "query:limit:false"])
        expect(JSON.stringify(list.find((parameter) => parameter.name === "limit"))).toContain(
          '"type":"integer","minimum":1,"maximum":100,"default":50'
        )
        const page = resolve(
          document,
          at(byId["members.list"], "responses", "200", "content", "application/json", "schema")
        )
        expect(page.required).toEqual(["items", "nextCursor"])
      })
    )

    it.effect("is served with ETag and 304, answers HEAD, and refuses other methods in the envelope", () =>
      Effect.gen(function* () {
        const first = yield* request("/api/v1/openapi.json")
        const etag = first.headers.get("etag") ?? ""
        const again = yield* request("/api/v1/openapi.json", { headers: { "if-none-match": etag } })
        expect(again.status).toBe(304)
        const head = yield* request("/api/v1/openapi.json", { method: "HEAD" })
        expect(head.status).toBe(200)
        expect(head.text).toBe("")
        const post = yield* request("/api/v1/openapi.json", { method: "POST" })
        expect(post.status).toBe(405)
        expect(isEnvelope(post.json, 405)).toBe(true)
      })
    )

    it.effect("the API reference page at /api/v1/docs renders this document", () =>
      Effect.gen(function* () {
        const page = yield* request("/api/v1/docs", { headers: { "accept-encoding": "gzip" } })
        expect(page.status).toBe(200)
        expect(page.headers.get("content-type")).toContain("text/html")
        expect(page.text).toContain("Foundation Account and Organization Service")
        expect(page.text).toContain("organizations.update")
        expect(page.text).toContain("__Secure-service.session_token")
      })
    )
  })
})
