// The small rules the OAuth engine is made of, each checked on its own: PKCE S256 (RFC 7636's own
// example, and oauth4webapi's challenges on random verifiers), the redirect URIs a client may have
// and how they match (RFC 8252), the sign-in page's return path (no open redirect), HTTP Basic client
// credentials (RFC 6749 §2.3.1), and the protected-resource registry's identifiers and challenges.
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import fc from "fast-check"
import * as oauth from "oauth4webapi"
import { parseBasic } from "../../src/foundation/OAuth/Clients.js"
import { isCodeChallenge, verifyS256 } from "../../src/foundation/OAuth/Pkce.js"
import {
  formTargetOf,
  redirectUriMatches,
  redirectUriProblem
} from "../../src/foundation/OAuth/RedirectUris.js"
import { safeReturnTo } from "../../src/foundation/Pages/ReturnTo.js"
import { ProtectedResources } from "../../src/http/ProtectedResources.js"

describe("PKCE S256", () => {
  it("accepts RFC 7636 Appendix B's verifier for its challenge, and nothing else", () => {
    const verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    const challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
    expect(verifyS256(verifier, challenge)).toBe(true)
    expect(verifyS256(`${verifier.slice(0, -1)}l`, challenge)).toBe(false)
    // The last character's low bits are not part of the hash: a different text is a different challenge.
    expect(verifyS256(verifier, `${challenge.slice(0, -1)}N`)).toBe(false)
    expect(verifyS256("short", challenge)).toBe(false)
    expect(isCodeChallenge(challenge)).toBe(true)
    expect(isCodeChallenge(`${challenge}=`)).toBe(false)
  })

  it.effect("agrees with oauth4webapi's challenge for random verifiers", () =>
    Effect.promise(() =>
      fc.assert(
        fc.asyncProperty(fc.constant(null), async () => {
          const verifier = oauth.generateRandomCodeVerifier()
          const challenge = await oauth.calculatePKCECodeChallenge(verifier)
          expect(verifyS256(verifier, challenge)).toBe(true)
          expect(verifyS256(oauth.generateRandomCodeVerifier(), challenge)).toBe(false)
        }),
        { numRuns: 50, seed: 7636 }
      )
    )
  )
})

describe("redirect URIs", () => {
  it("allows https, loopback http and private-use schemes, in normalized form, and nothing else", () => {
    for (const uri of [
      "https://app.example/callback",
      "http://127.0.0.1/callback",
      "http://[::1]:8080/cb",
      "http://localhost:3000/cb",
      "com.example.app:/oauth/callback"
    ]) {
      expect(redirectUriProblem(uri), uri).toBeUndefined()
    }
    const refused: Record<string, string> = {
      "http://app.example/callback": "must be https",
      "https://app.example/cb#x": "has a fragment",
      "https://user:pw@app.example/cb": "carries credentials",
      "javascript:alert(1)": "must be https",
      "data:text/html,x": "must be https",
      "myapp:/cb": "must be https",
      "https://APP.example/cb": "is not in normalized form",
      "/relative": "is not an absolute URI"
    }
    for (const [uri, problem] of Object.entries(refused))
      expect(redirectUriProblem(uri), uri).toContain(problem)
  })

  it("matches exactly, except a loopback http URI's port", () => {
    const registered = ["https://app.example/cb", "http://127.0.0.1/callback"]
    expect(redirectUriMatches(registered, "https://app.example/cb")).toBe(true)
    expect(redirectUriMatches(registered, "https://app.example/cb/")).toBe(false)
    expect(redirectUriMatches(registered, "https://app.example/cb?x=1")).toBe(false)
    expect(redirectUriMatches(registered, "https://app.example:8443/cb")).toBe(false)
    expect(redirectUriMatches(registered, "http://127.0.0.1:51234/callback")).toBe(true)
    expect(redirectUriMatches(registered, "http://127.0.0.1:51234/callback/x")).toBe(false)
    expect(redirectUriMatches(registered, "http://localhost:51234/callback")).toBe(false)
  })

  it("names the form-action source a redirect needs", () => {
    expect(formTargetOf("https://app.example/cb?x=1")).toBe("https://app.example")
    expect(formTargetOf("http://127.0.0.1:9/callback")).toBe("http://127.0.0.1:9")
    expect(formTargetOf("com.example.app:/cb")).toBe("com.example.app:")
  })
})

describe("the sign-in page's return path", () => {
  const origin = "https://service.example"
  it("keeps a path of this service and sends anything else home", () => {
    expect(safeReturnTo("/oauth/authorize?client_id=x&state=y", origin)).toBe(
      "/oauth/authorize?client_id=x&state=y"
    )
    for (const outside of [
      undefined,
      "",
      "https://evil.example/",
      "//evil.example/",
      "/\\evil.example",
      "javascript:alert(1)",
      "oauth/authorize"
    ]) {
      expect(safeReturnTo(outside, origin), String(outside)).toBe("/")
    }
  })
})

describe("HTTP Basic client credentials", () => {
  it("decodes both parts, form-decoding each after Base64 (RFC 6749 §2.3.1)", () => {
    const header = (id: string, secret: string) =>
      `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64")}`
    expect(parseBasic(header("cli_1", "fcs_a:b%c"))).toEqual({ id: "cli_1", secret: "fcs_a:b%c" })
    expect(parseBasic(header("https://app.example/c.json", "x"))).toEqual({
      id: "https://app.example/c.json",
      secret: "x"
    })
    expect(parseBasic("Bearer abc")).toBeUndefined()
    expect(parseBasic(`Basic ${Buffer.from("no-colon").toString("base64")}`)).toBeUndefined()
    expect(parseBasic(`Basic ${Buffer.from(":secret").toString("base64")}`)).toBeUndefined()
    expect(parseBasic(`Basic ${Buffer.from("%E0%A4%A:x").toString("base64")}`)).toBeUndefined()
  })
})

describe("the protected-resource registry", () => {
  it.effect("derives each resource's identifier, metadata URL and challenges, and finds it exactly", () =>
    Effect.gen(function* () {
      const resources = yield* ProtectedResources
      const api = resources.register({
        path: "/api/v1",
        name: "API",
        scopes: ["organizations:read"],
        scopeDescriptions: { "organizations:read": "Read it." }
      })
      expect(api.resource).toBe("https://service.example/api/v1")
      expect(api.metadataUrl).toBe("https://service.example/.well-known/oauth-protected-resource/api/v1")
      expect(api.challenge()).toBe(
        'Bearer resource_metadata="https://service.example/.well-known/oauth-protected-resource/api/v1"'
      )
      expect(api.challenge({ error: "insufficient_scope", scope: "organizations:write" })).toBe(
        'Bearer resource_metadata="https://service.example/.well-known/oauth-protected-resource/api/v1", error="insufficient_scope", scope="organizations:write"'
      )
      expect(resources.byResource("https://service.example/api/v1")).toBe(api)
      expect(resources.byResource("https://service.example/api/v1/organizations")).toBeUndefined()
      expect(resources.byMetadataPath("/.well-known/oauth-protected-resource/api/v1")).toBe(api)
      expect(() =>
        resources.register({ path: "/api/v1", name: "Again", scopes: [], scopeDescriptions: {} })
      ).toThrow("declared twice")
      // Every scope is described for the consent page, and nothing else is.
      expect(() =>
        resources.register({ path: "/other", name: "Other", scopes: ["a:read"], scopeDescriptions: {} })
      ).toThrow("must describe each of its scopes")
      expect(() =>
        resources.register({
          path: "/other",
          name: "Other",
          scopes: ["a:read"],
          scopeDescriptions: { "a:read": "Read.", "a:write": "Write." }
        })
      ).toThrow("must describe each of its scopes")
    }).pipe(Effect.provide(ProtectedResources.layer("https://service.example")))
  )
})
