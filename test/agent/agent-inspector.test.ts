// The MCP Inspector's command line (pinned in test/agent/inspector, run on Node 24 as it requires, no
// network once installed) against the real server: the commands content/docs/mcp.md gives for
// /mcp/agent, with a token from the OAuth code flow, read from the page and run; and in both protocol eras (`--protocol-era legacy`
// speaks 2025-11-25, `modern` 2026-07-28), every tool of /mcp, /mcp/docs and /mcp/agent listed and
// called (the agent's catalog tools are /mcp's: listed the same there and one called), each
// structuredContent valid against its tool's outputSchema and the same in both eras. The CLI takes
// one method per run and each run starts Node (about a second of CPU), so no call is made twice.
import { execFile } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { expect, layer } from "@effect/vitest"
import type { JsonSchemaType } from "@modelcontextprotocol/client"
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/client/validators/ajv"
import * as Effect from "effect/Effect"
import { ServerAddress } from "../../src/http/NodeServer.js"
import { backends } from "../foundation/support/Backends.js"
import { call, createOrganization, signUpVerified } from "../foundation/support/FoundationClient.js"
import { oauthWorld } from "../foundation/support/OAuthFlow.js"
import { describeNeeding } from "../support/Needs.js"
import { type Node24Tool, node24Tool } from "../support/Node24Tool.js"
import { agentServer, agentToken } from "./support/AgentServer.js"

const tool = node24Tool("test/agent/inspector", "inspector")

/**
 * Runs the Inspector with `args` asynchronously (the server answers from this process), with a home
 * folder of its own so its catalog and OAuth state files stay out of the real one.
 */
const run = ({ node, bin }: Node24Tool, args: ReadonlyArray<string>) =>
  Effect.acquireUseRelease(
    Effect.sync(() => mkdtempSync(join(tmpdir(), "inspector-home-"))),
    (home) =>
      Effect.async<{ code: number; stdout: string; stderr: string }>((resume) => {
        const child = execFile(
          node,
          [bin, ...args],
          { env: { ...process.env, HOME: home, NO_COLOR: "1" }, timeout: 60_000 },
          (error, stdout, stderr) => {
            const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1
            resume(Effect.succeed({ code, stdout, stderr }))
          }
        )
        return Effect.sync(() => child.kill())
      }),
    (home) => Effect.sync(() => rmSync(home, { recursive: true, force: true }))
  )

/** `run` with the installed Inspector (the group skips when it could not be installed). */
const inspector = (args: ReadonlyArray<string>) =>
  "skip" in tool ? Effect.dieMessage(tool.skip) : run(tool, args)

const mcpPage = readFileSync(join(import.meta.dirname, "../../content/docs/mcp.md"), "utf8")
const pinned = (
  JSON.parse(readFileSync(join(import.meta.dirname, "inspector/package.json"), "utf8")) as {
    dependencies: Record<string, string>
  }
).dependencies["@modelcontextprotocol/inspector"]
const pagePrefix = `npx -y @modelcontextprotocol/inspector@${pinned} --cli http://127.0.0.1:8080/mcp/agent `

/**
 * The page's Inspector commands for /mcp/agent as argument lists (continuation lines joined, shell
 * words split and unquoted), with the server's address and the token in place of its placeholders.
 */
const pageCommands = (url: string, accessToken: string): ReadonlyArray<ReadonlyArray<string>> =>
  mcpPage
    .replace(/\\\n\s*/g, "")
    .split("\n")
    .filter((line) => line.startsWith(pagePrefix))
    .map((line) =>
      (line.match(/(?:[^\s"]+|"[^"]*")+/g) ?? [])
        .slice(3)
        .map((word) =>
          word.replaceAll('"', "").replace("http://127.0.0.1:8080", url).replace("$ACCESS_TOKEN", accessToken)
        )
    )

const [pglite] = backends

describeNeeding("skip" in tool ? tool.skip : undefined)("the MCP Inspector CLI", () => {
  layer(agentServer(pglite?.database ?? Effect.dieMessage("no backend")), {
    timeout: 180_000,
    excludeTestServices: true
  })((it) => {
    it.effect(
      "mcp.md's commands, with a token from the code flow, list the eight tools, save a note and list it back, and the note is in notes.list",
      () =>
        Effect.gen(function* () {
          const address = yield* ServerAddress
          const world = yield* oauthWorld
          const owner = yield* signUpVerified("inspector")
          const organization = yield* createOrganization(owner, "Inspector Org")
          const grant = yield* agentToken(world, owner, organization.id, "notes:read notes:write")

          const [listCommand, saveCommand, notesCommand, ...more] = pageCommands(
            address.url,
            grant.accessToken
          )
          expect(more).toEqual([])
          expect(listCommand).toEqual([
            "--cli",
            `${address.url}/mcp/agent`,
            "--transport",
            "http",
            "--header",
            `Authorization: Bearer ${grant.accessToken}`,
            "--method",
            "tools/list"
          ])

          const listed = yield* inspector(listCommand ?? [])
          expect(listed.code, listed.stderr).toBe(0)
          const tools = (JSON.parse(listed.stdout) as { tools: ReadonlyArray<{ name: string }> }).tools
          expect(tools.map((tool) => tool.name).sort()).toEqual([
            "delete_note",
            "get_episode",
            "get_note",
            "get_transcript",
            "list_notes",
            "save_note",
            "search_episodes",
            "search_transcripts"
          ])

          expect(saveCommand?.slice(6)).toEqual([
            "--method",
            "tools/call",
            "--tool-name",
            "save_note",
            "--tool-arg",
            "slug=4",
            "--tool-arg",
            "text=Follow up on this"
          ])
          const saved = yield* inspector(saveCommand ?? [])
          expect(saved.code, saved.stdout + saved.stderr).toBe(0)
          const savedResult = JSON.parse(saved.stdout) as {
            isError?: boolean
            structuredContent: { id: string; episodeSlug: string; text: string }
          }
          expect(savedResult.isError ?? false).toBe(false)
          expect(savedResult.structuredContent).toMatchObject({ episodeSlug: "4", text: "Follow up on this" })

          expect(notesCommand?.slice(6)).toEqual(["--method", "tools/call", "--tool-name", "list_notes"])
          const notes = yield* inspector(notesCommand ?? [])
          expect(notes.code, notes.stderr).toBe(0)
          const page = (
            JSON.parse(notes.stdout) as {
              structuredContent: { items: ReadonlyArray<{ id: string; text: string }> }
            }
          ).structuredContent
          expect(page.items.map((item) => item.id)).toEqual([savedResult.structuredContent.id])

          const seen = yield* call(`/organizations/${organization.id}/notes`, { session: owner.session })
          expect(
            (seen.json as { items: ReadonlyArray<{ id: string }> }).items.map((item) => item.id)
          ).toEqual([savedResult.structuredContent.id])
          // The token is a secret: the Inspector's output must not echo it back.
          for (const run of [listed, saved, notes]) {
            expect(run.stdout + run.stderr).not.toContain(grant.accessToken)
          }
        }),
      // Three runs of a command-line program that starts Node each time: more than the default on a busy machine.
      120_000
    )

    it.effect(
      "in both protocol eras, lists and calls every tool of /mcp, /mcp/docs and /mcp/agent (its catalog tools, /mcp's, listed as there and one called); each structuredContent is valid against its outputSchema and the same in both",
      () =>
        Effect.gen(function* () {
          const address = yield* ServerAddress
          const world = yield* oauthWorld
          const owner = yield* signUpVerified("eras")
          const organization = yield* createOrganization(owner, "Eras Org")
          const grant = yield* agentToken(world, owner, organization.id, "notes:read notes:write")
          const validator = new AjvJsonSchemaValidator()
          type Listed = { tools: ReadonlyArray<{ name: string; outputSchema?: JsonSchemaType }> }
          type Called = { isError?: boolean; structuredContent?: unknown }

          /**
           * Lists the tools of `path` in `era` (expecting `calls`' tools and `alsoListed`), calls each
           * of `calls` with its arguments, and checks the results.
           */
          const everyTool = (
            era: "legacy" | "modern",
            path: string,
            calls: ReadonlyArray<readonly [string, Record<string, unknown>]>,
            headers: ReadonlyArray<string> = [],
            alsoListed: ReadonlyArray<string> = []
          ) =>
            Effect.gen(function* () {
              const base = [`${address.url}${path}`, "--transport", "http", "--protocol-era", era, ...headers]
              const listed = yield* inspector(["--cli", ...base, "--method", "tools/list"])
              expect(listed.code, listed.stderr).toBe(0)
              const { tools: offered } = JSON.parse(listed.stdout) as Listed
              expect(offered.map((tool) => tool.name).sort(), `${era} ${path}`).toEqual(
                [...calls.map(([name]) => name), ...alsoListed].sort()
              )
              // Calls that change nothing run side by side; the notebook's run in order (get before delete).
              const results = yield* Effect.forEach(
                calls,
                ([name, args]) =>
                  Effect.map(
                    inspector([
                      "--cli",
                      ...base,
                      "--method",
                      "tools/call",
                      "--tool-name",
                      name,
                      "--tool-args-json",
                      JSON.stringify(args)
                    ]),
                    (run) => {
                      expect(run.code, `${era} ${path} ${name}: ${run.stdout}${run.stderr}`).toBe(0)
                      const result = JSON.parse(run.stdout) as Called
                      expect(result.isError ?? false, `${era} ${name}: ${run.stdout}`).toBe(false)
                      const schema = offered.find((tool) => tool.name === name)?.outputSchema
                      const checked = validator.getValidator(schema ?? {})(result.structuredContent)
                      expect(checked.errorMessage, `${era} ${name}`).toBeUndefined()
                      return result.structuredContent
                    }
                  ),
                { concurrency: path === "/mcp/agent" ? 1 : 4 }
              )
              return { offered, results }
            })

          const catalogCalls = [
            ["search_episodes", { limit: 2 }],
            ["get_episode", { slug: "4" }],
            ["search_transcripts", { query: "fog signals" }],
            ["get_transcript", { slug: "4", max_characters: 40 }]
          ] as const
          const docsCalls = [
            ["search_docs", { query: "ETag" }],
            ["get_doc", { path: "caching.md" }]
          ] as const
          const bearer = ["--header", `Authorization: Bearer ${grant.accessToken}`]
          const catalog = yield* everyTool("legacy", "/mcp", catalogCalls)
          expect(yield* everyTool("modern", "/mcp", catalogCalls)).toEqual(catalog)
          const docs = yield* everyTool("legacy", "/mcp/docs", docsCalls)
          expect(yield* everyTool("modern", "/mcp/docs", docsCalls)).toEqual(docs)
          // The agent session: a note saved in each era, read back and deleted in it. Its catalog
          // tools are /mcp's (one definition, src/catalog/mcp/CatalogTools.ts), whose every call the
          // Inspector made above: here they are listed as /mcp lists them, and one is called, through
          // the bearer token, answering as on /mcp; each notebook tool is called.
          const [searchEpisodes, ...otherCatalogTools] = catalogCalls
          for (const era of ["legacy", "modern"] as const) {
            const saved = yield* inspector([
              "--cli",
              `${address.url}/mcp/agent`,
              "--transport",
              "http",
              "--protocol-era",
              era,
              ...bearer,
              "--method",
              "tools/call",
              "--tool-name",
              "save_note",
              "--tool-args-json",
              JSON.stringify({ slug: "4", paragraph_index: 0, text: `Saved in the ${era} era.` })
            ])
            expect(saved.code, saved.stdout + saved.stderr).toBe(0)
            const id = (JSON.parse(saved.stdout) as { structuredContent: { id: string } }).structuredContent
              .id
            const agent = yield* everyTool(
              era,
              "/mcp/agent",
              [
                searchEpisodes,
                ["save_note", { slug: "4", text: `Another in the ${era} era.` }],
                ["list_notes", { limit: 5 }],
                ["get_note", { id }],
                ["delete_note", { id }]
              ],
              bearer,
              otherCatalogTools.map(([name]) => name)
            )
            const definitions = (offered: Listed["tools"]) =>
              offered
                .filter((tool) => catalogCalls.some(([name]) => name === tool.name))
                .sort((a, b) => a.name.localeCompare(b.name))
            expect(definitions(agent.offered)).toEqual(definitions(catalog.offered))
            expect(agent.results[0]).toEqual(catalog.results[0])
          }
          const left = yield* call(`/organizations/${organization.id}/notes`, { session: owner.session })
          expect(
            (left.json as { items: ReadonlyArray<{ text: string }> }).items.map((item) => item.text)
          ).toEqual(["Another in the legacy era.", "Another in the modern era."])
        }),
      600_000
    )
  })
})
