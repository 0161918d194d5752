// The fetch of Client ID Metadata Documents as anonymous strangers can drive it (extensions §8): an
// address that is loopback or private in any of its forms (IPv6 ones included: `[::127.0.0.1]`,
// `[::ffff:127.0.0.1]`, NAT64, 6to4) is refused before any connection, and the refusal says only
// that the address is not allowed (never what a name resolved to); a failure is remembered for a
// while, concurrent requests for one URL share one fetch, and each fetch counts against the address
// of the request that caused it. PGlite and PostgreSQL.
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import { describe, expect, it, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { publicAddress } from "../../src/foundation/OAuth/ClientMetadataFetch.js"
import { request } from "../support/TestServer.js"
import { backends } from "./support/Backends.js"
import { foundationServer } from "./support/FoundationClient.js"
import { REDIRECT_URI } from "./support/OAuthFlow.js"
import { inOneWindowSameKeys } from "./support/RateWindows.js"

describe("publicAddress", () => {
  it("refuses every loopback, private and special form, IPv6 ones included", () => {
    for (const address of [
      "127.0.0.1",
      "127.8.9.10",
      "10.0.0.1",
      "172.16.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "255.255.255.255",
      "224.0.0.1",
      "192.0.2.1",
      "::",
      "::1",
      "::127.0.0.1",
      "::7f00:1",
      "::10.0.0.1",
      // The IPv4-compatible form of a public address, as the URL parser writes `[::8.8.8.8]`.
      "::808:808",
      "::ffff:127.0.0.1",
      "::ffff:10.0.0.1",
      "::ffff:0:127.0.0.1",
      "64:ff9b::127.0.0.1",
      "64:ff9b::8.8.8.8",
      "64:ff9b:1::a00:1",
      "2002:7f00:1::",
      "2002:808:808::1",
      "2001:0:4136:e378:8000:63bf:80ff:fffe",
      "2001:db8::1",
      "fe80::1",
      "fc00::1",
      "fd12:3456::1",
      "ff02::1",
      "100::1",
      "not an address"
    ]) {
      expect(publicAddress(address), address).toBe(false)
    }
  })

  it("allows public addresses, and an IPv4-mapped one as the IPv4 it maps", () => {
    for (const address of [
      "8.8.8.8",
      "1.1.1.1",
      "2001:4860:4860::8888",
      "2606:4700:4700::1111",
      "::ffff:8.8.8.8"
    ]) {
      expect(publicAddress(address), address).toBe(true)
    }
  })
})

/** A loopback server (IPv4 and IPv6) that counts its connections and answers with `answer`. */
const countingHost = (answer: (response: Http.ServerResponse, url: string) => void = notFound) =>
  Effect.acquireRelease(
    Effect.promise(
      () =>
        new Promise<{
          servers: Array<Http.Server>
          port: number
          requests: () => number
          connections: () => number
        }>((resolve) => {
          let requests = 0
          let connections = 0
          let port = 0
          const handler = (request: Http.IncomingMessage, response: Http.ServerResponse) => {
            requests++
            answer(response, `http://127.0.0.1:${port}${request.url ?? "/"}`)
          }
          const v4 = Http.createServer(handler)
          const v6 = Http.createServer(handler)
          for (const server of [v4, v6]) server.on("connection", () => connections++)
          v4.listen(0, "127.0.0.1", () => {
            port = (v4.address() as AddressInfo).port
            // The same port on ::1 too, when this machine has IPv6 loopback.
            v6.once("error", () =>
              resolve({ servers: [v4], port, requests: () => requests, connections: () => connections })
            )
            v6.listen(port, "::1", () =>
              resolve({ servers: [v4, v6], port, requests: () => requests, connections: () => connections })
            )
          })
        })
    ),
    ({ servers }) =>
      Effect.promise(() =>
        Promise.all(
          servers.map(
            (server) =>
              new Promise<void>((resolve) => {
                server.closeAllConnections()
                server.close(() => resolve())
              })
          )
        )
      )
  )

function notFound(response: Http.ServerResponse) {
  response.writeHead(404, { "content-type": "text/plain" })
  response.end("no")
}

/** An anonymous authorization request naming `clientId`: the page (400) or the way to sign in (303). */
const authorize = (clientId: string) =>
  request(
    `/oauth/authorize?${new URLSearchParams({
      response_type: "code",
      client_id: clientId,
      redirect_uri: REDIRECT_URI,
      code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
      code_challenge_method: "S256"
    })}`
  )

for (const backend of backends) {
  describe.skipIf(backend.skip)(`metadata-document addresses on ${backend.name}`, () => {
    layer(foundationServer(backend.database), { timeout: 120_000, excludeTestServices: true })((it) => {
      it.effect(
        "every loopback form is refused without a connection, and the refusal names no address or name",
        () =>
          Effect.scoped(
            Effect.gen(function* () {
              const host = yield* countingHost()
              const p = host.port
              for (const origin of [
                `https://[::127.0.0.1]:${p}`,
                `https://[::ffff:127.0.0.1]:${p}`,
                `https://[::ffff:0:127.0.0.1]:${p}`,
                `https://[::1]:${p}`,
                `https://[64:ff9b::127.0.0.1]:${p}`,
                `https://[2002:7f00:1::]:${p}`,
                `https://127.0.0.1:${p}`,
                `https://0x7f.1:${p}`,
                `https://localhost:${p}`
              ]) {
                const page = yield* authorize(`${origin}/oauth/client.json`)
                expect(page.status, origin).toBe(400)
                expect(page.text, origin).toContain("its address is not allowed")
                for (const revealing of ["127.0.0.1", "::1", "DNS lookup", "family", "private IP"]) {
                  expect(page.text.includes(revealing), `${origin} shows ${revealing}`).toBe(false)
                }
              }
              expect(host.connections()).toBe(0)
            })
          )
      )
    })
  })

  describe.skipIf(backend.skip)(`metadata-document fetches on ${backend.name}`, () => {
    const server = foundationServer(backend.database, { OAUTH_ALLOW_PRIVATE_ADDRESSES: "true" })
    layer(server, { timeout: 120_000, excludeTestServices: true })((it) => {
      it.effect("a failure is remembered: twenty requests, one fetch", () =>
        Effect.scoped(
          Effect.gen(function* () {
            const host = yield* countingHost()
            const url = `http://127.0.0.1:${host.port}/oauth/client.json`
            for (let i = 0; i < 20; i++) {
              const page = yield* authorize(url)
              expect(page.status).toBe(400)
              expect(page.text).toContain("answered 404")
            }
            expect(host.requests()).toBe(1)
          })
        )
      )

      it.effect("concurrent requests for one document share one fetch", () =>
        Effect.scoped(
          Effect.gen(function* () {
            const host = yield* countingHost((response, url) =>
              setTimeout(() => {
                response.writeHead(200, { "content-type": "application/json" })
                response.end(
                  JSON.stringify({
                    client_id: url,
                    client_name: "Shared",
                    redirect_uris: [REDIRECT_URI],
                    token_endpoint_auth_method: "none"
                  })
                )
              }, 500)
            )
            const url = `http://127.0.0.1:${host.port}/oauth/client.json`
            const answers = yield* Effect.all(
              Array.from({ length: 10 }, () => authorize(url)),
              { concurrency: "unbounded" }
            )
            // Each is sent on to sign in: the document was good for all of them.
            expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 10 }, () => 303))
            expect(host.requests()).toBe(1)
          })
        )
      )
    })
  })

  describe.skipIf(backend.skip)(`metadata-document fetches per address on ${backend.name}`, () => {
    const server = foundationServer(backend.database, {
      OAUTH_ALLOW_PRIVATE_ADDRESSES: "true",
      OAUTH_DOCUMENT_FETCH_RATE_LIMIT: "3"
    })
    layer(server, { timeout: 120_000, excludeTestServices: true })((it) => {
      it.effect(
        "varying the URL does not escape the limit: the fourth fetch in a minute is 429",
        () =>
          // Counted under the test's own (loopback) address, which cannot change from run to run.
          inOneWindowSameKeys(
            Effect.scoped(
              Effect.gen(function* () {
                const host = yield* countingHost()
                const statuses: Array<number> = []
                for (let i = 0; i < 6; i++) {
                  const page = yield* authorize(`http://127.0.0.1:${host.port}/oauth/client-${i}.json`)
                  statuses.push(page.status)
                  if (page.status === 429) expect(Number(page.headers.get("retry-after"))).toBeGreaterThan(0)
                }
                expect(statuses).toEqual([400, 400, 400, 429, 429, 429])
                expect(host.requests()).toBe(3)
              })
            ),
            5_000
          ),
        // Time for a wait of up to a minute, should the burst cross a window's edge.
        120_000
      )
    })
  })
}
