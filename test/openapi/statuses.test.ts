// For every operation of both served documents, the statuses the server's edge answers on its own
// are the ones the document lists: the server is driven with a method the path lacks (405 with
// Allow), a body over MAX_BODY_BYTES (413), a refused content coding (406), a request node cannot
// parse (400), no credential, and a spent rate limit (429). Every status it answers is documented,
// and 405, 406, 413 and 429 are documented exactly where it answers them. A 500 cannot be provoked
// from outside; every operation documents it as the `defined: false` envelope.
import * as Http from "node:http"
import { connect } from "node:net"
import { describe, expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { ServerAddress } from "../../src/http/NodeServer.js"
import { call, PUBLIC_ORIGIN, signUp } from "../foundation/support/FoundationClient.js"
import { inOneWindowSameKeys } from "../foundation/support/RateWindows.js"
import { catalogTestServer } from "../support/CatalogTestServer.js"
import { request } from "../support/TestServer.js"
import {
  bothApisServer,
  documentNames,
  isJson,
  type Json,
  type Operation,
  operationsOf,
  servedDocuments
} from "./support/ServedDocuments.js"

const maxBodyBytes = 1024

/** The query an operation needs to answer at all (its required parameters). */
const sampleQueries: Record<string, string> = {
  "transcripts.search": "?q=diaphone",
  "ask.get": "?q=lighthouse"
}

/**
 * The operation's path with every parameter filled in: catalog ones with values that exist (so a
 * refused content coding is what decides the answer), foundation ids with one that does not.
 */
const concretePath = (operation: Operation, snapshotFile = "x1") =>
  operation.path
    .replace(/\{slug\}/g, "4")
    .replace(/\{path\}/g, encodeURIComponent(snapshotFile))
    .replace(/\{[^}]+\}/g, "x1") + (sampleQueries[operation.id] ?? "")

interface Answer {
  readonly status: number
  readonly headers: Http.IncomingHttpHeaders
}

/** One request on its own connection, with the exact headers given (fetch would add or refuse some). */
const send = (
  method: string,
  path: string,
  headers: Record<string, string | number> = {},
  body?: Buffer | string
) =>
  Effect.flatMap(ServerAddress, (address) =>
    Effect.async<Answer>((resume) => {
      const outgoing = Http.request(
        { host: address.host, port: address.port, method, path, headers, agent: false },
        (response) => {
          response.resume()
          response.on("end", () =>
            resume(Effect.succeed({ status: response.statusCode ?? 0, headers: response.headers }))
          )
        }
      )
      // The server may answer (413) and close before it has read the body.
      outgoing.on("error", () => {})
      outgoing.end(body)
    })
  )

/** Bytes node cannot parse as a request (a space in a header name), sent to the operation's path. */
const malformed = (method: string, path: string) =>
  Effect.flatMap(ServerAddress, (address) =>
    Effect.async<number>((resume) => {
      const socket = connect(address.port, address.host, () =>
        socket.write(`${method.toUpperCase()} ${path} HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n`)
      )
      let answer = ""
      socket.on("data", (chunk) => {
        answer += chunk.toString()
      })
      socket.on("close", () => resume(Effect.succeed(Number(/^HTTP\/1\.1 (\d+)/.exec(answer)?.[1] ?? 0))))
    })
  )

const methods = ["GET", "POST", "PUT", "PATCH", "DELETE"]

/** The methods each path of a document lists, as `Allow` writes them (HEAD wherever GET is). */
const allowedByDocument = (operations: ReadonlyArray<Operation>, path: string) => {
  const listed = operations
    .filter((operation) => operation.path === path)
    .map((operation) => operation.method.toUpperCase())
  return new Set(listed.includes("GET") ? [...listed, "HEAD"] : listed)
}

/** Drives one operation with the requests whose answers do not depend on its data. */
const drive = (
  operation: Operation,
  operations: ReadonlyArray<Operation>,
  snapshotFile: string,
  observed: Set<number>
) =>
  Effect.gen(function* () {
    const method = operation.method.toUpperCase()
    const path = concretePath(operation, snapshotFile)
    const allowed = allowedByDocument(operations, operation.path)
    const other = methods.find((candidate) => !allowed.has(candidate)) ?? "TRACE"
    const wrong = yield* send(other, path)
    observed.add(wrong.status)
    if (wrong.status === 405) {
      expect(new Set(String(wrong.headers.allow).split(", ")), `${operation.id} Allow`).toEqual(allowed)
    }
    const oversized = yield* send(
      method,
      path,
      { "content-type": "application/json", "content-length": maxBodyBytes * 2, origin: PUBLIC_ORIGIN },
      Buffer.alloc(maxBodyBytes * 2, 0x20)
    )
    observed.add(oversized.status)
    const body = method === "GET" ? undefined : "{}"
    const jsonHeaders =
      body === undefined ? {} : { "content-type": "application/json", origin: PUBLIC_ORIGIN }
    observed.add(
      (yield* send(method, path, { ...jsonHeaders, "accept-encoding": "identity;q=0" }, body)).status
    )
    observed.add((yield* send(method, path, jsonHeaders, body)).status)
    observed.add(yield* malformed(method, path))
  })

/** The statuses of each operation that the edge answers on its own, documented exactly there. */
const edgeStatuses = [405, 406, 413, 429]

const compare = (operation: Operation, observed: ReadonlySet<number>, driven: ReadonlyArray<number>) => {
  const documented = new Set([...operation.statuses].map(Number))
  const undocumented = [...observed].filter((status) => !documented.has(status))
  expect(undocumented, `${operation.document} ${operation.id}: answered but not documented`).toEqual([])
  for (const status of driven) {
    expect(documented.has(status), `${operation.document} ${operation.id}: ${status}`).toBe(
      observed.has(status)
    )
  }
  expect(
    documented.has(400) && documented.has(500),
    `${operation.document} ${operation.id}: 400 and 500`
  ).toBe(true)
}

/** The 500 response of an operation is the `defined: false` envelope. */
const internalErrorOf = (document: Json, operation: Operation): Json => {
  const response = (operation.operation.responses as Json)["500"] as Json
  const ref = String((((response.content as Json)["application/json"] as Json).schema as Json).$ref)
  return ((document.components as Json).schemas as Json)[ref.replace("#/components/schemas/", "")] as Json
}

describe("the statuses each operation documents", () => {
  describe("with a spent catalog rate limit", () => {
    layer(catalogTestServer({ CATALOG_RATE_LIMIT: "1", MAX_BODY_BYTES: String(maxBodyBytes) }), {
      timeout: 120_000,
      excludeTestServices: true
    })((it) => {
      it.effect(
        "every catalog operation but the health probe answers 429 once the budget is spent, and documents it",
        () =>
          Effect.gen(function* () {
            const document = (yield* request("/openapi.json")).json as Json
            yield* request("/health")
            for (const operation of operationsOf("catalog", document)) {
              const method = operation.method.toUpperCase()
              const body = method === "GET" ? undefined : "{}"
              const answer = yield* send(
                method,
                concretePath(operation),
                { "content-type": "application/json" },
                body
              )
              // Probes never spend the budget (a refused probe would take a healthy instance away).
              const probe = operation.path === "/health"
              expect(answer.status, operation.id).toBe(probe ? 200 : 429)
              expect(operation.statuses.has("429"), `${operation.id} documents 429`).toBe(!probe)
            }
          })
      )
    })
  })

  describe("on the service with both APIs", () => {
    layer(
      bothApisServer({
        MAX_BODY_BYTES: String(maxBodyBytes),
        CREDENTIAL_RATE_LIMIT: "1",
        AUTH_RATE_LIMIT: "1"
      }),
      { timeout: 120_000, excludeTestServices: true }
    )((it) => {
      it.effect(
        "match what the server answers: 405 with Allow, 406, 413 and 429 exactly where documented, 400 and 500 everywhere",
        () =>
          Effect.gen(function* () {
            const documents = yield* servedDocuments
            const manifest = (yield* request("/v1/snapshot")).json as {
              readonly index: ReadonlyArray<string>
            }
            const snapshotFile = manifest.index[0] ?? ""
            // A session whose one request a minute is spent, and an address and email whose one
            // sign-in is: every answer that should be 429 must come in the minute they were spent in
            // (the limits count in fixed windows), so the whole pass runs inside one window, again
            // in the next should it cross an edge (a new account each time).
            yield* inOneWindowSameKeys(
              Effect.gen(function* () {
                const account = yield* signUp("Spent")
                yield* call("/profile", { session: account.session })
                for (const name of documentNames) {
                  const operations = operationsOf(name, documents[name])
                  for (const operation of operations) {
                    const observed = new Set<number>()
                    yield* drive(operation, operations, snapshotFile, observed)
                    if (name === "foundation") {
                      const method = operation.method.toUpperCase()
                      const body =
                        method === "GET"
                          ? undefined
                          : { email: account.email, password: account.password, name: "x" }
                      const spent = yield* call(concretePath(operation).replace("/api/v1", ""), {
                        method,
                        ...(body === undefined ? {} : { body }),
                        ...(operation.statuses.has("401") &&
                        !["auth.signIn", "auth.signUp"].includes(operation.id)
                          ? { session: account.session }
                          : {})
                      })
                      observed.add(spent.status)
                    }
                    // The catalog's 429 is driven, operation by operation, on a server of its own above.
                    compare(
                      operation,
                      observed,
                      name === "catalog" ? edgeStatuses.filter((status) => status !== 429) : edgeStatuses
                    )
                    const internal = internalErrorOf(documents[name], operation)
                    expect(internal.required, operation.id).toEqual(["defined", "code", "status", "message"])
                    expect(((internal.properties as Json).defined as Json).enum).toEqual([false])
                    expect(isJson((operation.operation.responses as Json)["405"])).toBe(true)
                    expect(((operation.operation.responses as Json)["405"] as Json).headers).toHaveProperty(
                      "Allow"
                    )
                  }
                }
              }),
              10_000
            )
          }),
        120_000
      )
    })
  })
})
