// Both served documents through the client generators people use: openapi-typescript (pinned in
// test/openapi/client-generator, installed there on first use) makes each document's types, and a
// small openapi-fetch program that calls the catalog (ask by query and by body, an episode, a search)
// and the foundation (the caller's organizations) must type-check strictly with no diagnostic, with
// the root's TypeScript compiler in this process. A deliberately wrong program must not, so the check
// can fail. /ask's 200 lists JSON only (its event stream is said in words), which is what lets the
// generated answer be AskAnswer rather than a union (docs/decisions/ask-openapi-media-types.md).
import { execFile } from "node:child_process"
import { symlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import ts from "typescript"
import { whenMet } from "../support/Needs.js"
import { tempDir } from "../support/TempDir.js"
import { folderTool } from "../support/ToolFolder.js"
import { bothApisServer, documentNames, type Json, servedDocuments } from "./support/ServedDocuments.js"

const toolFolder = "test/openapi/client-generator"
const generator = folderTool(toolFolder, "openapi-typescript")

/** `openapi-typescript <document> -o <types>`, run off this process's event loop. */
const generate = (node: string, bin: string, document: string, types: string) =>
  Effect.async<void>((resume) => {
    execFile(node, [bin, document, "-o", types], { timeout: 60_000 }, (error, _stdout, stderr) => {
      resume(error === null ? Effect.void : Effect.dieMessage(`openapi-typescript ${document}: ${stderr}`))
    })
  })

/** The client program: every call's data read as the generated types say it is. */
const client = `import createClient from "openapi-fetch"
import type { paths as Catalog } from "./catalog.js"
import type { paths as Foundation } from "./foundation.js"

const catalog = createClient<Catalog>({ baseUrl: "http://127.0.0.1:8080" })
const foundation = createClient<Foundation>({ baseUrl: "http://127.0.0.1:8080" })

export const tour = async (): Promise<ReadonlyArray<string>> => {
  const said: Array<string> = []
  const byQuery = await catalog.GET("/ask", { params: { query: { q: "Who hosts the show?" } } })
  if (byQuery.data !== undefined) {
    const answer: string = byQuery.data.answer
    const cited: string | undefined = byQuery.data.citations[0]?.url
    said.push(answer, String(cited), byQuery.data.intent.topics.join(" "))
  } else {
    said.push(byQuery.error.message)
  }
  const byBody = await catalog.POST("/ask", { body: { question: "What did they say about maps?", limit: 3 } })
  if (byBody.data !== undefined) said.push(byBody.data.answer, ...byBody.data.episodes.map((episode) => episode.title))
  const episode = await catalog.GET("/v1/episodes/{slug}", { params: { path: { slug: "the-first-one" } } })
  if (episode.data !== undefined) {
    const seconds: number = episode.data.data.durationSeconds
    said.push(episode.data.data.title, String(seconds))
  }
  const hits = await catalog.GET("/v1/transcripts/search", { params: { query: { q: "lighthouse", limit: 5 } } })
  if (hits.data !== undefined) {
    const next: string | null = hits.data.nextCursor
    said.push(...hits.data.data.map((hit) => hit.title), String(next))
  }
  const episodes = await catalog.GET("/v1/episodes", { params: { query: { q: "keeper" } } })
  if (episodes.data !== undefined) said.push(...episodes.data.data.map((found) => found.slug))
  const organizations = await foundation.GET("/api/v1/organizations", {
    headers: { authorization: "Bearer an-organization-token" }
  })
  if (organizations.data !== undefined) {
    said.push(...organizations.data.map((organization) => \`\${organization.name} (\${organization.id})\`))
  } else {
    said.push(organizations.error.message)
  }
  return said
}
`

/** A program the generated types must refuse: the answer is text, not a number. */
const wrongClient = `import createClient from "openapi-fetch"
import type { paths as Catalog } from "./catalog.js"

const catalog = createClient<Catalog>({ baseUrl: "http://127.0.0.1:8080" })

export const wrong = async (): Promise<number> => {
  const { data } = await catalog.GET("/ask", { params: { query: { q: "Who hosts the show?" } } })
  if (data === undefined) return 0
  const answer: number = data.answer
  return answer
}
`

/** The strict options of the repository's own tsconfig, for a program on its own. */
const compilerOptions: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ["lib.es2023.d.ts", "lib.dom.d.ts"],
  types: [],
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  verbatimModuleSyntax: true,
  noEmit: true
}

/** Every diagnostic of one program of `files` (the generated types and openapi-fetch's included). */
const diagnosticsOf = (files: ReadonlyArray<string>): ReadonlyArray<string> => {
  const program = ts.createProgram(files, compilerOptions)
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")
    if (diagnostic.file === undefined || diagnostic.start === undefined)
      return `TS${diagnostic.code}: ${text}`
    const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start)
    return `${diagnostic.file.fileName}:${line + 1} TS${diagnostic.code}: ${text}`
  })
}

const askResponses = (document: Json) =>
  ["get", "post"].map((method) => {
    const operation = ((document.paths as Json)["/ask"] as Json)[method] as Json
    return { operation, ok: (operation.responses as Json)["200"] as Json }
  })

describe("clients generated from the served OpenAPI documents", () => {
  layer(bothApisServer(), { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect("/ask's 200 lists JSON only and says the event-stream alternative in words", () =>
      Effect.gen(function* () {
        const { catalog } = yield* servedDocuments
        for (const { operation, ok } of askResponses(catalog)) {
          expect(Object.keys(ok.content as Json)).toEqual(["application/json"])
          expect(((ok.content as Json)["application/json"] as Json).schema).toEqual({
            $ref: "#/components/schemas/AskAnswer"
          })
          for (const description of [operation.description, ok.description]) {
            expect(description).toContain("`text/event-stream`")
            expect(description).toContain("`answer` (AskComposition")
          }
        }
      })
    )

    it.effect(
      "give types an openapi-fetch program reads with no diagnostic, and refuse a wrong one",
      whenMet(["skip" in generator ? generator.skip : undefined], () =>
        Effect.gen(function* () {
          if ("skip" in generator) return
          const documents = yield* servedDocuments
          const folder = tempDir("openapi-client-")
          // The program's imports resolve in the tool folder, where openapi-fetch is installed.
          symlinkSync(
            join(import.meta.dirname, "client-generator/node_modules"),
            join(folder, "node_modules")
          )
          writeFileSync(join(folder, "package.json"), JSON.stringify({ type: "module" }))
          for (const name of documentNames) {
            const document = join(folder, `${name}.json`)
            writeFileSync(document, JSON.stringify(documents[name]))
            yield* generate(generator.node, generator.bin, document, join(folder, `${name}.d.ts`))
          }
          writeFileSync(join(folder, "client.ts"), client)
          writeFileSync(join(folder, "wrong.ts"), wrongClient)

          // One program for both (the libraries are read and checked once): the wrong one's mistake
          // is the only diagnostic.
          const diagnostics = diagnosticsOf([join(folder, "client.ts"), join(folder, "wrong.ts")])
          expect(diagnostics).toEqual([
            `${join(folder, "wrong.ts")}:9 TS2322: Type 'string' is not assignable to type 'number'.`
          ])
        })
      ),
      120_000
    )
  })
})
