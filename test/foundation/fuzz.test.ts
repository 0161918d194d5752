// Bad input never crashes: random bodies, paths and headers sent to every foundation endpoint get a
// contract status and the error envelope, never a 5xx; and the bearer parser accepts exactly
// `Bearer <token68>`.
import { describe, expect, it, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import fc from "fast-check"
import { parseBearer } from "../../src/foundation/Security/BearerToken.js"
import { request } from "../support/TestServer.js"
import { freshDataDir } from "./support/Backends.js"
import {
  COOKIE,
  call,
  createOrganization,
  foundationServer,
  PUBLIC_ORIGIN,
  signUp
} from "./support/FoundationClient.js"

const endpoints: ReadonlyArray<readonly [method: string, path: string]> = [
  ["POST", "/auth/sign-up"],
  ["POST", "/auth/sign-in"],
  ["POST", "/auth/verify-email"],
  ["POST", "/auth/sign-out"],
  ["POST", "/security/password"],
  ["DELETE", "/security/sessions/{id}"],
  ["PATCH", "/profile"],
  ["POST", "/profile/email"],
  ["POST", "/organizations"],
  ["GET", "/organizations"],
  ["GET", "/organizations/{org}"],
  ["PATCH", "/organizations/{org}"],
  ["POST", "/context/organization"],
  ["GET", "/organizations/{org}/members"],
  ["PATCH", "/organizations/{org}/members/{id}"],
  ["DELETE", "/organizations/{org}/members/{id}"],
  ["GET", "/organizations/{org}/invitations"],
  ["POST", "/organizations/{org}/invitations"],
  ["DELETE", "/organizations/{org}/invitations/{id}"],
  ["POST", "/invitations/{id}/accept"],
  ["POST", "/invitations/{id}/reject"],
  ["POST", "/organizations/{org}/tokens"],
  ["GET", "/organizations/{org}/tokens"],
  ["DELETE", "/organizations/{org}/tokens/{id}"],
  ["GET", "/credential-context"],
  ["GET", "/context"]
]

const contractStatuses = [200, 400, 401, 403, 404, 405, 409, 413, 429]

const isEnvelope = (json: unknown) =>
  typeof json === "object" &&
  json !== null &&
  (json as { defined?: unknown }).defined === true &&
  typeof (json as { code?: unknown }).code === "string" &&
  typeof (json as { message?: unknown }).message === "string"

describe("random input to the foundation", () => {
  layer(foundationServer(Effect.map(freshDataDir, (dir) => ({ DATA_DIR: dir }))), {
    timeout: 120_000,
    excludeTestServices: true
  })((it) => {
    it.effect("random JSON bodies, path segments and query strings never get a 5xx", () =>
      Effect.gen(function* () {
        const account = yield* signUp("fuzzer")
        const organization = yield* createOrganization(account, "Fuzz Org")
        const samples = fc.sample(
          fc.record({
            endpoint: fc.constantFrom(...endpoints),
            body: fc.oneof(fc.jsonValue(), fc.string(), fc.constant(undefined)),
            segment: fc.oneof(fc.string({ minLength: 1, maxLength: 200 }), fc.constant(organization.id)),
            query: fc.oneof(
              fc.constant(""),
              fc.string({ maxLength: 40 }).map((q) => `?cursor=${q}&limit=${q}`)
            ),
            withSession: fc.boolean()
          }),
          { numRuns: 300, seed: 4 }
        )
        for (const sample of samples) {
          const [method, template] = sample.endpoint
          const path =
            template
              .replaceAll("{org}", encodeURIComponent(sample.segment))
              .replaceAll("{id}", encodeURIComponent(sample.segment)) + sample.query
          const headers: Record<string, string> = {
            origin: PUBLIC_ORIGIN,
            "content-type": "application/json"
          }
          if (sample.withSession) headers.cookie = `${COOKIE}=${account.session}`
          const body =
            method === "GET" || sample.body === undefined
              ? undefined
              : typeof sample.body === "string"
                ? sample.body
                : JSON.stringify(sample.body)
          const response = yield* request(`/api/v1${path}`, {
            method,
            headers,
            ...(body === undefined ? {} : { body })
          })
          const label = `${method} ${path} ${body ?? ""}`.slice(0, 300)
          expect(contractStatuses, label).toContain(response.status)
          // Every refusal is in the envelope.
          expect(response.status === 200 || isEnvelope(response.json), label).toBe(true)
        }
        // The service still works after all that (the fuzzer may have signed its own session out).
        const after = yield* signUp("after-fuzz")
        expect((yield* call("/profile", { session: after.session })).status).toBe(200)
      })
    )
  })
})

describe("the bearer parser", () => {
  const token68 = fc.stringMatching(/^[A-Za-z0-9\-._~+/]+=*$/)

  it("accepts `Bearer <token68>` and returns the token", () =>
    fc.assert(
      fc.property(token68, (token) => {
        expect(parseBearer(`Bearer ${token}`)).toEqual(Option.some(token))
      })
    ))

  it("refuses anything else", () =>
    fc.assert(
      fc.property(fc.string(), (header) => {
        const parsed = parseBearer(header)
        expect(Option.isNone(parsed) || header === `Bearer ${parsed.value}`, header).toBe(true)
      })
    ))

  it("refuses the shapes the built-in decoder let through", () => {
    for (const header of [
      "xxxxxxabc",
      "bearer abc",
      "Bearer  abc",
      "Bearer abc def",
      "Bearer",
      "Bearer ",
      "Basic abc"
    ]) {
      expect(parseBearer(header), header).toEqual(Option.none())
    }
  })
})
