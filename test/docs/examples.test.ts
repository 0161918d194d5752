// The documents' curl examples are a test: every `sh` block of README.md and content/docs/*.md that
// runs curl is run, page by page, in one bash process (variables carry over from block to block, as
// a reader's terminal keeps them), in a temporary working directory, against the real service
// (catalog and foundation, PUBLIC_ORIGIN its URL, the snapshot built from content/) with
// http://127.0.0.1:8080 replaced by its address, and a log in service.log as `npm start >
// service.log` would write it. curl is wrapped by a shell function that runs the real curl with
// `--trace-ascii` and notes the line it was called from (BASH_LINENO), so every request is attributed
// to the command of the page that made it. Each curl command must run, make its requests and get
// the status its trailing comment names (`# 304`, `# 404: …`, `# HTTP/1.1 304`), or a 2xx or 304
// when it names none; any command of an example that fails (a sed that finds nothing, a grep that
// matches nothing) fails the page. The MCP Inspector lines are not run; the tools they call must
// exist on the server they name (those of /mcp/agent run in test/agent/agent-inspector.test.ts).
import { appendFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import { buildCatalog } from "../../build/BuildCatalog.js"
import { freshDataDir } from "../foundation/support/Backends.js"
import { runCommand } from "../support/Command.js"
import { freePort as freePortNow } from "../support/FreePort.js"
import { codeBlocksOf } from "../support/MarkdownBlocks.js"
import { tempDir } from "../support/TempDir.js"
import { request, testServer } from "../support/TestServer.js"
import { exchangesOf } from "./CurlTrace.js"
import { type CurlExample, pageScript } from "./ShellExamples.js"

const repository = resolve(import.meta.dirname, "..", "..")
const documentedAddress = "http://127.0.0.1:8080"

/** Every page with examples, in reading order: the README, then the docs by name. */
const pages = [
  "README.md",
  ...readdirSync(join(repository, "content", "docs"))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `content/docs/${name}`)
]

/**
 * Runs before each page's examples. The ERR trap notes any command that fails (in functions and
 * substitutions too, with -E); the curl function runs the real curl with a trace of its own and notes
 * the line it was called from, curl's exit status and the trace.
 */
const prelude = [
  "set -E",
  `trap 'printf "%s\\t%s\\n" "$LINENO" "$?" >> "$DOC_ERRORS"' ERR`,
  "curl() {",
  "  local trace status=0",
  '  trace=$(mktemp "$DOC_TRACES/curl.XXXXXX")',
  '  command curl --trace-ascii "$trace" "$@" || status=$?',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: bash's own expansion, not a template
  '  printf "%s\\t%s\\t%s\\n" "${BASH_LINENO[0]}" "$status" "$trace" >> "$DOC_CALLS"',
  '  return "$status"',
  "}"
]

class DocsService extends Context.Tag("DocsService")<
  DocsService,
  { readonly url: string; readonly workDirectory: string }
>() {}

const freePort = Effect.promise(freePortNow)

/** The service's log lines appended to a file, as `npm start > service.log` leaves them. */
const fileLogger = (file: string) =>
  Logger.make(({ logLevel, message, date }) => {
    const parts = Array.isArray(message) ? message : [message]
    const text = parts.map((part) => (typeof part === "string" ? part : JSON.stringify(part))).join(" ")
    appendFileSync(file, `[${date.toISOString().slice(11, 23)}] ${logLevel.label} (#0): ${text}\n`)
  })

/**
 * The whole service as a reader runs it: its public origin and the snapshot's links are its own
 * address (a port chosen before it starts, since PUBLIC_ORIGIN must name it), PGlite as the database.
 */
const docsServer = Layer.unwrapScoped(
  Effect.gen(function* () {
    const port = yield* freePort
    const url = `http://127.0.0.1:${port}`
    const workDirectory = tempDir("docs-examples-")
    const snapshot = join(tempDir("docs-snapshot-"), "catalog")
    yield* Effect.orDie(
      buildCatalog({
        feed: join(repository, "content", "feed.xml"),
        docs: join(repository, "content", "docs"),
        out: snapshot,
        sourceDateEpoch: undefined,
        progress: () => {}
      })
    )
    const dataDirectory = yield* freshDataDir
    return Layer.merge(
      testServer({
        PORT: String(port),
        PUBLIC_ORIGIN: url,
        CATALOG_DIR: snapshot,
        DATA_DIR: dataDirectory,
        OUTBOX_POLL_MS: "50"
      }).pipe(
        Layer.provide(Logger.replace(Logger.defaultLogger, fileLogger(join(workDirectory, "service.log"))))
      ),
      Layer.succeed(DocsService, { url, workDirectory })
    )
  })
)

const where = (page: string, example: CurlExample) =>
  `${page}:${example.pageLines[0]}: ${example.text.split("\n")[0]?.trim()}`

const table = (file: string) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => line.split("\t"))

/** Runs the page's examples; the problems found, as sentences naming the page and line. */
const runPage = (page: string) =>
  Effect.gen(function* () {
    const { url, workDirectory } = yield* DocsService
    const script = pageScript(
      readFileSync(join(repository, page), "utf8"),
      prelude.length,
      documentedAddress,
      url
    )
    const name = page.replace(/\W+/g, "-")
    const traces = join(workDirectory, ".traces", name)
    mkdirSync(traces, { recursive: true })
    const calls = join(traces, "calls.tsv")
    const errors = join(traces, "errors.tsv")
    writeFileSync(calls, "")
    writeFileSync(errors, "")
    const file = join(traces, "examples.sh")
    writeFileSync(file, [...prelude, ...script.lines, ""].join("\n"))
    const run = yield* runCommand("bash", ["--noprofile", "--norc", file], {
      cwd: workDirectory,
      timeoutMs: 120_000,
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: workDirectory,
        CURL_HOME: workDirectory,
        LANG: "C.UTF-8",
        DOC_CALLS: calls,
        DOC_ERRORS: errors,
        DOC_TRACES: traces
      }
    })

    const problems: Array<string> = []
    const lineOfScript = (line: number) => {
      const example = script.curls.find((c) => line >= c.scriptLines[0] && line <= c.scriptLines[1])
      return example === undefined ? `script line ${line}` : where(page, example)
    }
    if (run.code !== 0) problems.push(`${page}: the examples' shell ended with ${run.code}: ${run.stderr}`)
    const failed = new Set(
      table(errors)
        .map(([line]) => Number(line))
        .filter((line) => line > prelude.length)
    )
    for (const line of failed) problems.push(`${lineOfScript(line)}: a command of this example failed`)

    const byExample = new Map<CurlExample, Array<{ status: number; trace: string }>>()
    for (const [line, status, trace] of table(calls)) {
      const example = script.curls.find(
        (c) => Number(line) >= c.scriptLines[0] && Number(line) <= c.scriptLines[1]
      )
      if (example === undefined) {
        problems.push(`${page}: a curl call from script line ${line} belongs to no example of the page`)
        continue
      }
      byExample.set(example, [
        ...(byExample.get(example) ?? []),
        { status: Number(status), trace: trace ?? "" }
      ])
    }
    for (const example of script.curls) {
      const invocations = byExample.get(example) ?? []
      if (invocations.length === 0) problems.push(`${where(page, example)}: never ran`)
      for (const invocation of invocations) {
        // 23: the reader's pipe (`| head -1`) closed before curl wrote everything; the answer was read.
        if (invocation.status !== 0 && !(invocation.status === 23 && example.text.includes("|"))) {
          problems.push(`${where(page, example)}: curl failed with exit status ${invocation.status}`)
        }
        const exchanges = exchangesOf(readFileSync(invocation.trace, "utf8"))
        if (exchanges.length === 0) problems.push(`${where(page, example)}: made no request`)
        for (const { request, status } of exchanges) {
          const expected = example.expectedStatus
          const ok =
            status !== undefined &&
            (expected === undefined ? (status >= 200 && status < 300) || status === 304 : status === expected)
          if (!ok) {
            const promise = expected === undefined ? "a 2xx or 304 (no status noted)" : `${expected}`
            problems.push(
              `${where(page, example)}: ${request} answered ${status ?? "nothing"}, the text says ${promise}`
            )
          }
        }
      }
    }
    return { problems, examples: script.curls.length }
  })

/** `--tool-name` arguments of the MCP Inspector lines, with the server URL each line names. */
const inspectorCalls = () =>
  pages.flatMap((page) =>
    codeBlocksOf(join(repository, page))
      .filter((block) => block.language === "sh")
      .flatMap((block) => block.lines.join("\n").replace(/\\\n/g, " ").split("\n"))
      .filter((line) => line.includes("@modelcontextprotocol/inspector"))
      .flatMap((line) => {
        const server = /--cli (\S+)/.exec(line)?.[1]
        const tool = /--tool-name (\S+)/.exec(line)?.[1]
        return server === undefined || tool === undefined ? [] : [{ page, server, tool, line }]
      })
  )

describe("the documents' examples", () => {
  it.layer(docsServer, { timeout: 180_000 })((it) => {
    for (const page of pages) {
      // As long as the page's shell may run: the foundation's page signs up three people and runs
      // the OAuth flow, which overran vitest's default 30 s on a loaded machine.
      it.effect(
        `${page}: every curl command runs and gets the status its text gives`,
        () =>
          Effect.gen(function* () {
            const { problems, examples } = yield* runPage(page)
            expect(examples).toBeGreaterThan(0)
            expect(problems).toEqual([])
          }),
        { timeout: 120_000 }
      )
    }

    it.effect("the curl examples cover every surface of the service", () =>
      Effect.sync(() => {
        const curls = pages.flatMap(
          (page) => pageScript(readFileSync(join(repository, page), "utf8"), 0, documentedAddress, "").curls
        )
        expect(curls.length).toBeGreaterThan(60)
        const text = curls.map((curl) => curl.text).join("\n")
        const surfaces = [
          "/health",
          "/v1/episodes",
          "/v1/transcripts/search",
          "/v1/transcripts/",
          "/v1/batch"
        ]
        surfaces.push(
          "/v1/snapshot",
          "/snapshot/",
          "/sandbox",
          "/openapi.json",
          "/mcp ",
          "/mcp/docs",
          "/rpc",
          "/ask"
        )
        surfaces.push("$API/auth/", "$API/organizations", "$API/invitations/", "$API/context")
        for (const surface of surfaces) expect(text, surface).toContain(surface)
      })
    )

    it.effect("the sandbox's conditional-request advice runs as written and prints 304", () =>
      Effect.gen(function* () {
        const { workDirectory } = yield* DocsService
        const sandbox = (yield* request("/sandbox")).json as { conditionalRequests: Array<string> }
        const advice = sandbox.conditionalRequests.find((line) => line.includes("--etag-compare")) ?? ""
        const commands = [...advice.matchAll(/curl .*?(?=, then | prints )/g)].map((match) => match[0])
        expect(commands).toHaveLength(2)
        const cwd = join(workDirectory, "sandbox")
        mkdirSync(cwd, { recursive: true })
        const run = yield* runCommand("bash", ["--noprofile", "--norc", "-c", commands.join("\n")], { cwd })
        expect(run.stdout).toBe("304\n")
        expect(sandbox.conditionalRequests.join(" ")).toContain("or * alone")
      })
    )

    it.effect("the MCP Inspector lines call tools the server they name has", () =>
      Effect.gen(function* () {
        yield* DocsService
        const calls = inspectorCalls()
        expect(calls.length).toBeGreaterThan(0)
        for (const { page, server, tool, line } of calls) {
          // The server's path (a page may name the host in words, e.g. https://<this service>/mcp/agent).
          const path = /^https?:\/\/[^/]+(\/[^?#]*)/.exec(server)?.[1] ?? server
          // The protected server answers only with a token from the OAuth flow: its lines must send
          // one, and test/agent/agent-inspector.test.ts runs them for real with one.
          if (path === "/mcp/agent") {
            expect(line, `${page}: ${tool} on ${server}`).toContain('--header "Authorization: Bearer')
            continue
          }
          const listed = yield* request(path, {
            method: "POST",
            headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
            body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })
          })
          const tools = (listed.json as { result: { tools: Array<{ name: string }> } }).result.tools
          expect(
            tools.map((t) => t.name),
            `${page}: ${tool} on ${server}`
          ).toContain(tool)
        }
      })
    )
  })
})
