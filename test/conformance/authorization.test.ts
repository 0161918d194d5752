// The official MCP conformance suite's authorization scenarios (authorization-server-metadata,
// authorization-code-grant) against the service's OAuth authorization server, for the foundation API
// and for the agent session (`--resource`): the suite prints an authorization URL and waits on its
// own loopback callback; a person signs in and allows in headless Chromium; the suite exchanges the
// code and checks the answers. Both runs must pass every check. The server listens on a port chosen
// first, so that PUBLIC_ORIGIN (the issuer) is the address the suite and the browser use.
import { spawn } from "node:child_process"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { ownOriginAgentServer } from "../agent/support/AgentServer.js"
import { browserUnavailable, launchBrowser } from "../support/Browser.js"
import { approveInBrowser } from "../support/ConsentInBrowser.js"
import { freePort } from "../support/FreePort.js"
import { describeNeeding } from "../support/Needs.js"
import { type Node24Tool, node24Tool } from "../support/Node24Tool.js"
import { tempDir } from "../support/TempDir.js"

const suite = node24Tool("test/conformance/suite", "conformance")

const port = await freePort()
const origin = `http://127.0.0.1:${port}`

interface Check {
  readonly id: string
  readonly status: string
  readonly errorMessage?: string
}

/** A JSON call to the foundation API, as a script of the person would make it. */
const api = (path: string, body: unknown, cookie?: string) =>
  Effect.promise(async () => {
    const response = await fetch(`${origin}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin, ...(cookie === undefined ? {} : { cookie }) },
      body: JSON.stringify(body)
    })
    return {
      status: response.status,
      json: (await response.json()) as Record<string, unknown>,
      cookie: (response.headers.get("set-cookie") ?? "").split(";")[0] ?? ""
    }
  })

/**
 * Runs `conformance authorization` until it prints the authorization URL, hands that to `approve`,
 * and waits for the suite to finish; answers its exit code, output and checks.
 */
const runAuthorization = <R>(
  { node, bin }: Node24Tool,
  args: ReadonlyArray<string>,
  approve: (url: string) => Effect.Effect<unknown, never, R>
) =>
  Effect.gen(function* () {
    const outputDir = tempDir("conformance-authorization-")
    const child = spawn(node, [bin, "authorization", ...args, "--output-dir", outputDir], { cwd: outputDir })
    let output = ""
    const url = yield* Effect.async<string, Error>((resume) => {
      const look = (chunk: Buffer) => {
        output += chunk.toString()
        const found = output.split("\n").find((line) => line.startsWith(`${origin}/oauth/authorize?`))
        if (found !== undefined) {
          child.stdout.off("data", look)
          resume(Effect.succeed(found.trim()))
        }
      }
      child.stdout.on("data", look)
      child.stderr.on("data", (chunk: Buffer) => {
        output += chunk.toString()
      })
      child.on("exit", () =>
        resume(Effect.fail(new Error(`the suite ended before asking for a person:\n${output}`)))
      )
      return Effect.sync(() => child.kill())
    })
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString()
    })
    const exited = new Promise<number | null>((done) => child.on("exit", (code) => done(code)))
    yield* approve(url)
    const code = yield* Effect.promise(() => exited)
    const checks = readdirSync(outputDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .flatMap(
        (entry) =>
          JSON.parse(readFileSync(join(outputDir, entry.name, "checks.json"), "utf8")) as Array<Check>
      )
    return { code, output, checks, url: new URL(url) }
  })

describeNeeding(browserUnavailable, "skip" in suite ? suite.skip : undefined)(
  "the MCP conformance suite's authorization scenarios",
  () => {
    layer(ownOriginAgentServer(port), { timeout: 120_000, excludeTestServices: true })((it) => {
      it.scoped(
        "pass for the foundation API and for the agent session, a person allowing in the browser",
        () =>
          Effect.gen(function* () {
            if ("skip" in suite) return yield* Effect.die(suite.skip)
            const browser = yield* launchBrowser
            const person = {
              email: `conformance.${Date.now()}@example.com`,
              password: "conformance password"
            }
            const signedUp = yield* api("/api/v1/auth/sign-up", { ...person, name: "Connie" })
            expect(signedUp.status).toBe(200)
            yield* api("/api/v1/organizations", { name: "Conformance Org" }, signedUp.cookie)

            for (const resource of [undefined, `${origin}/mcp/agent`]) {
              const callbackPort = yield* Effect.promise(() => freePort())
              const registered = yield* api("/oauth/register", {
                client_name: "MCP conformance suite",
                redirect_uris: [`http://127.0.0.1:${callbackPort}/callback`],
                token_endpoint_auth_method: "none",
                grant_types: ["authorization_code", "refresh_token"],
                response_types: ["code"]
              })
              expect(registered.status).toBe(201)
              const run = yield* runAuthorization(
                suite,
                [
                  "--url",
                  origin,
                  "--client-id",
                  String(registered.json.client_id),
                  "--port",
                  String(callbackPort),
                  ...(resource === undefined ? [] : ["--resource", resource])
                ],
                (url) => approveInBrowser(browser, url, person, { organization: "Conformance Org" })
              )
              if (resource !== undefined) expect(run.url.searchParams.get("resource")).toBe(resource)
              const failed = run.checks.filter((check) => check.status === "FAILURE")
              const passed = run.checks.filter((check) => check.status === "SUCCESS").length
              console.log(
                `conformance authorization (${resource ?? "default resource, the foundation API"}): ` +
                  `${passed} checks passed, ${failed.length} failed`
              )
              expect(
                failed.map((check) => `${check.id}: ${check.errorMessage ?? ""}`),
                run.output
              ).toEqual([])
              expect(run.checks.map((check) => check.id)).toEqual(
                expect.arrayContaining([
                  "authorization-server-metadata",
                  "authorization-server-metadata-cimd",
                  "authorization-code-grant"
                ])
              )
              expect(run.code, run.output).toBe(0)
            }
          }),
        600_000
      )
    })
  }
)
