// The acceptance requests of the REST tests through Prism's validating proxy (`prism proxy <doc>
// <server> --errors`; Prism pinned in test/openapi/prism, installed there on first use) in front of
// the real server, one proxy per served document: no request or
// answer violates its document. Prism answers a violation itself (an error status and an
// `sl-violations` header), so each step must come back with the status the server gives and no
// violation; a step whose values the document already refuses must be refused by Prism as invalid
// input, before the server sees it.
import { type ChildProcess, spawn } from "node:child_process"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { ServerAddress } from "../../src/http/NodeServer.js"
import { COOKIE, linkTokenFor, PUBLIC_ORIGIN, uniqueEmail } from "../foundation/support/FoundationClient.js"
import { freePort as freePortNow } from "../support/FreePort.js"
import { describeNeeding } from "../support/Needs.js"
import { tempDir } from "../support/TempDir.js"
import type { TestResponse } from "../support/TestServer.js"
import { type FolderTool, folderTool } from "../support/ToolFolder.js"
import { catalogAcceptance, foundationAcceptance, type Run, type Step } from "./support/AcceptanceRequests.js"
import {
  bothApisServer,
  type DocumentName,
  documentNames,
  servedDocuments
} from "./support/ServedDocuments.js"

const prism = folderTool("test/openapi/prism", "prism")

const freePort = Effect.promise(freePortNow)

/** `prism proxy` of one document in front of `upstream`, stopped with the scope. */
const prismProxy = ({ node, bin }: FolderTool, document: string, upstream: string) =>
  Effect.acquireRelease(
    Effect.flatMap(freePort, (port) =>
      Effect.async<{ readonly url: string; readonly child: ChildProcess }>((resume) => {
        const child = spawn(
          node,
          [bin, "proxy", document, upstream, "--errors", "-h", "127.0.0.1", "-p", String(port)],
          {
            stdio: ["ignore", "pipe", "pipe"]
          }
        )
        let output = ""
        const timer = setTimeout(() => resume(Effect.dieMessage(`Prism did not start:\n${output}`)), 60_000)
        const listen = (chunk: Buffer) => {
          output += chunk.toString()
          if (output.includes("Prism is listening")) {
            clearTimeout(timer)
            resume(Effect.succeed({ url: `http://127.0.0.1:${port}`, child }))
          }
        }
        child.stdout.on("data", listen)
        child.stderr.on("data", listen)
        child.on("exit", (code) => {
          clearTimeout(timer)
          resume(Effect.dieMessage(`Prism exited with ${code}:\n${output}`))
        })
      })
    ),
    ({ child }) => Effect.sync(() => child.kill())
  )

const parse = (text: string): unknown => {
  try {
    return text === "" ? undefined : JSON.parse(text)
  } catch {
    return undefined
  }
}

interface Outcome {
  readonly step: Step
  readonly response: TestResponse
}

/** Sends each step through the proxy at `base`, and keeps what came back. */
const recorder =
  (base: string, outcomes: Array<Outcome>): Run =>
  (step) =>
    Effect.promise(async () => {
      const headers: Record<string, string> = { ...step.headers }
      let body: string | undefined
      if (step.body !== undefined) {
        headers["content-type"] ??= "application/json"
        body = typeof step.body === "string" ? step.body : JSON.stringify(step.body)
      }
      const answer = await fetch(`${base}${step.path}`, {
        method: step.method ?? "GET",
        headers,
        redirect: "manual",
        ...(body === undefined ? {} : { body })
      })
      const text = await answer.text()
      const response = { status: answer.status, headers: answer.headers, text, json: parse(text) }
      outcomes.push({ step, response })
      return response
    })

/** What went wrong with one step, if anything. */
const problemOf = ({ step, response }: Outcome): string | undefined => {
  const said = `${step.name} (${step.method ?? "GET"} ${step.path.slice(0, 80)})`
  const violations = response.headers.get("sl-violations")
  const type = String((response.json as { type?: unknown } | undefined)?.type ?? "")
  if (step.refusedByDocument === true) {
    return response.status === 422 && type.endsWith("#UNPROCESSABLE_ENTITY")
      ? undefined
      : `${said}: expected Prism to refuse it as invalid input, got ${response.status} ${response.text.slice(0, 300)}`
  }
  if (violations !== null) return `${said}: ${violations.slice(0, 600)}`
  if (response.status !== step.status) {
    return `${said}: expected ${step.status}, got ${response.status} ${response.text.slice(0, 300)}`
  }
  return undefined
}

describeNeeding("skip" in prism ? prism.skip : undefined)(
  "the acceptance requests through Prism's validating proxy",
  () => {
    layer(bothApisServer(), { timeout: 180_000, excludeTestServices: true })((it) => {
      it.scoped(
        "break no rule of either document",
        () =>
          Effect.gen(function* () {
            if ("skip" in prism) return
            const address = yield* ServerAddress
            const documents = yield* servedDocuments
            const folder = tempDir("openapi-prism-")
            const proxies: Partial<Record<DocumentName, string>> = {}
            for (const name of documentNames) {
              const file = join(folder, `${name}.json`)
              writeFileSync(file, JSON.stringify(documents[name]))
              proxies[name] = (yield* prismProxy(prism, file, address.url)).url
            }
            const catalog: Array<Outcome> = []
            yield* catalogAcceptance(recorder(proxies.catalog ?? "", catalog))
            const foundation: Array<Outcome> = []
            yield* foundationAcceptance(recorder(proxies.foundation ?? "", foundation), {
              publicOrigin: PUBLIC_ORIGIN,
              cookieName: COOKIE,
              linkToken: linkTokenFor,
              uniqueEmail
            })
            expect(catalog.length).toBeGreaterThan(60)
            expect(foundation.length).toBeGreaterThan(30)
            expect(catalog.flatMap((outcome) => problemOf(outcome) ?? [])).toEqual([])
            expect(foundation.flatMap((outcome) => problemOf(outcome) ?? [])).toEqual([])
          }),
        120_000
      )
    })
  }
)
