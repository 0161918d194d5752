// The official MCP conformance suite (pinned in test/conformance/suite, run on Node 24) against
// /mcp and /mcp/docs of the real service, for both revisions they serve: every server scenario the
// revision requires (`--requirements`), with the checks that need the suite's own fixtures listed in
// NotApplicable.ts as expected failures. The run fails on any other failure, and on a listed check
// that passes. The catalog's rate limit is raised: a revision's run sends a few hundred requests.
import { readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { ServerAddress } from "../../src/http/NodeServer.js"
import { runCommand } from "../support/Command.js"
import { contentTestServer } from "../support/ContentTestServer.js"
import { describeNeeding } from "../support/Needs.js"
import { node24Tool } from "../support/Node24Tool.js"
import { tempDir } from "../support/TempDir.js"
import { expectedFailuresYaml, notApplicableChecks, type Revision, type ServerPath } from "./NotApplicable.js"

const suite = node24Tool("test/conformance/suite", "conformance")

interface Check {
  readonly id: string
  readonly status: "SUCCESS" | "FAILURE" | "WARNING" | "SKIPPED" | "INFO"
  readonly errorMessage?: string
}

/** Every check of a run, as `scenario:check-id` with its status, read from the suite's result folders. */
const checksOf = (outputDir: string) =>
  readdirSync(outputDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => {
      // A folder is `server-<scenario>-<ISO time>`.
      const scenario = entry.name.replace(/^server-/, "").replace(/-\d{4}-\d{2}-\d{2}T.*$/, "")
      const checks = JSON.parse(
        readFileSync(join(outputDir, entry.name, "checks.json"), "utf8")
      ) as Array<Check>
      return checks.map((check) => ({ ...check, name: `${scenario}:${check.id}` }))
    })

const servers: ReadonlyArray<ServerPath> = ["/mcp", "/mcp/docs"]
const revisions: ReadonlyArray<Revision> = ["2026-07-28", "2025-11-25"]

describeNeeding("skip" in suite ? suite.skip : undefined)(
  "the MCP conformance suite on /mcp and /mcp/docs",
  () => {
    it.layer(contentTestServer({ CATALOG_RATE_LIMIT: "100000" }), { timeout: 120_000 })((it) => {
      for (const server of servers) {
        for (const revision of revisions) {
          it.effect(
            `${server}, ${revision}: every required server scenario passes, but for the checks of the suite's own fixtures`,
            () =>
              Effect.gen(function* () {
                if ("skip" in suite) return yield* Effect.die(suite.skip)
                const address = yield* ServerAddress
                const work = tempDir("conformance-")
                const baseline = join(work, "not-applicable.yaml")
                writeFileSync(baseline, expectedFailuresYaml(server, revision))
                const outputDir = join(work, "results")
                const result = yield* runCommand(
                  suite.node,
                  [
                    suite.bin,
                    "server",
                    "--url",
                    `${address.url}${server}`,
                    "--requirements",
                    revision,
                    "--expected-failures",
                    baseline,
                    "--output-dir",
                    outputDir
                  ],
                  { cwd: work, timeoutMs: 600_000 }
                )
                const checks = checksOf(outputDir)
                const listed = new Set(notApplicableChecks(server, revision))
                // The suite's baseline counts a warning (a SHOULD not met) as a failure; so do we.
                const failures = checks.filter(
                  (check) => check.status === "FAILURE" || check.status === "WARNING"
                )
                const unexpected = failures.filter((check) => !listed.has(check.name))
                const passed = checks.filter((check) => check.status === "SUCCESS").length
                console.log(
                  `conformance ${server} ${revision}: ${passed} checks passed, ${unexpected.length} failed, ` +
                    `${failures.length - unexpected.length} not applicable (the suite's fixtures)`
                )
                expect(
                  unexpected.map((check) => `${check.name}: ${check.errorMessage ?? ""}`),
                  result.stdout.slice(-3000)
                ).toEqual([])
                expect(passed).toBeGreaterThan(30)
                // The suite's own verdict: no unexpected failure, and no listed check that now passes.
                expect(result.code, result.stdout.slice(-3000)).toBe(0)
              }),
            900_000
          )
        }
      }
    })
  }
)
