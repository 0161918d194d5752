// Both OpenAPI documents as the server serves them, read the way their readers' tools read them:
// Redocly CLI's recommended ruleset finds nothing (the CLI pinned in test/openapi/redocly, installed
// there on first use), every schema a person reads has a plain title and
// states its real bounds, and tuples are written so that draft-07 validators (Prism) read them right.
import { execFile } from "node:child_process"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { whenMet } from "../support/Needs.js"
import { tempDir } from "../support/TempDir.js"
import { type FolderTool, folderTool } from "../support/ToolFolder.js"
import {
  bothApisServer,
  type DocumentName,
  documentNames,
  isJson,
  type Json,
  servedDocuments
} from "./support/ServedDocuments.js"

interface LintReport {
  readonly totals: { readonly errors: number; readonly warnings: number }
  readonly problems: ReadonlyArray<{ readonly ruleId: string; readonly message: string }>
}

const redocly = folderTool("test/openapi/redocly", "redocly")

/** `redocly lint` of one file with the recommended ruleset (the default without a config file). */
const lint = ({ node, bin }: FolderTool, file: string) =>
  Effect.async<LintReport>((resume) => {
    execFile(
      node,
      [bin, "lint", file, "--format=json"],
      {
        cwd: join(file, ".."),
        timeout: 60_000,
        // No telemetry and no update check: the run stays on this machine.
        env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" }
      },
      (_error, stdout) => {
        // A failed lint exits non-zero and still prints its report; no report is the failure.
        resume(Effect.sync(() => JSON.parse(stdout) as LintReport))
      }
    )
  })

/** Every object of a document with where it is, e.g. `paths./v1/episodes.get.parameters.0`. */
const nodesOf = (document: Json): ReadonlyArray<{ readonly at: string; readonly node: Json }> => {
  const found: Array<{ at: string; node: Json }> = []
  const walk = (value: unknown, at: string) => {
    if (Array.isArray(value)) {
      value.forEach((item, index) => {
        walk(item, `${at}.${index}`)
      })
    } else if (isJson(value)) {
      found.push({ at, node: value })
      for (const [key, child] of Object.entries(value)) walk(child, at === "" ? key : `${at}.${key}`)
    }
  }
  walk(document.paths, "paths")
  walk(document.components, "components")
  return found
}

/** Labels the platform makes up from a schema's filters and built-ins. */
const generatedTitle =
  /^(?:maxLength|minLength|length|between|greaterThan|greaterThanOrEqualTo|lessThan|lessThanOrEqualTo|nonNegative|nonPositive|positive|negative|int|finite|pattern|filter|brand|minItems|maxItems|itemsCount|unknown|any|object)\b/
/** A name a person would give: capitalised words, e.g. "Email address", "Non-negative count". */
const plainName = /^[A-Z][A-Za-z0-9]*(?:[ -][A-Za-z0-9]+)*$/

type Range = readonly [minimum: number, maximum: number]

/** The length ranges a description states: "8 to 128 characters", "at most 254 characters". */
const statedLengths = (text: string): ReadonlyArray<Range> => [
  ...[...text.matchAll(/(\d+) to (\d+) characters/g)].map(
    ([, min, max]): Range => [Number(min), Number(max)]
  ),
  ...[...text.matchAll(/at most (\d+) characters/g)].map(([, max]): Range => [0, Number(max)]),
  ...[...text.matchAll(/at least (\d+) characters/g)].map(([, min]): Range => [Number(min), Infinity])
]

/** The number ranges a description states: "1 to 365", "at least 0", "non-negative". */
const statedNumbers = (text: string): ReadonlyArray<Range> => [
  ...[...text.matchAll(/(-?\d+) to (-?\d+)/g)].map(([, min, max]): Range => [Number(min), Number(max)]),
  ...[...text.matchAll(/at most (-?\d+)/g)].map(([, max]): Range => [-Infinity, Number(max)]),
  ...[...text.matchAll(/at least (-?\d+)/g)].map(([, min]): Range => [Number(min), Infinity]),
  ...(/non-negative/.test(text) ? [[0, Infinity] as Range] : [])
]

const numberOr = (value: unknown, fallback: number) => (typeof value === "number" ? value : fallback)

/** What is wrong with the title and the stated bounds of one schema, if anything. */
const labelProblems = (schema: Json, description: unknown): ReadonlyArray<string> => {
  const problems: Array<string> = []
  const title = schema.title
  if (typeof title === "string" && (generatedTitle.test(title) || !plainName.test(title))) {
    problems.push(`generated title ${JSON.stringify(title)}`)
  }
  const text = typeof description === "string" ? description : ""
  const hasLength = typeof schema.minLength === "number" || typeof schema.maxLength === "number"
  const hasRange = typeof schema.minimum === "number" || typeof schema.maximum === "number"
  if ((hasLength || hasRange) && typeof title !== "string") problems.push("bounds without a title")
  if (hasLength) {
    const real: Range = [numberOr(schema.minLength, 0), numberOr(schema.maxLength, Infinity)]
    const stated = statedLengths(text)
    if (stated.length === 0) problems.push(`${JSON.stringify(text)} does not state the length ${real}`)
    for (const range of stated) {
      if (range[0] !== real[0] || range[1] !== real[1])
        problems.push(`${JSON.stringify(text)} states ${range} characters, the schema ${real}`)
    }
  }
  if (hasRange) {
    const real: Range = [numberOr(schema.minimum, -Infinity), numberOr(schema.maximum, Infinity)]
    const stated = statedNumbers(text)
    if (stated.length === 0) problems.push(`${JSON.stringify(text)} does not state the range ${real}`)
    for (const range of stated) {
      if (range[0] !== real[0] || range[1] !== real[1])
        problems.push(`${JSON.stringify(text)} states ${range}, the schema ${real}`)
    }
  }
  return problems
}

/** Generated titles and misstated bounds anywhere in a document (schemas and parameters). */
const labelFindings = (document: Json): ReadonlyArray<string> =>
  nodesOf(document).flatMap(({ at, node }) => {
    // A parameter repeats its schema's description; it must state the same bounds.
    if (typeof node.in === "string" && isJson(node.schema)) {
      return labelProblems({ ...node.schema, title: "Parameter" }, node.description).map(
        (problem) => `${at}: ${problem}`
      )
    }
    // A `properties` map is no schema, even with a property named `minimum`.
    const isSchema =
      !at.endsWith(".properties") &&
      ["type", "$ref", "title", "minLength", "maxLength", "minimum", "maximum"].some((key) => key in node)
    return isSchema ? labelProblems(node, node.description).map((problem) => `${at}: ${problem}`) : []
  })

/** Tuples a draft-07 validator would misread: `items: false`, or `prefixItems` without bounds. */
const tupleFindings = (document: Json): ReadonlyArray<string> =>
  nodesOf(document).flatMap(({ at, node }) => {
    if (node.items === false) return [`${at}: items: false`]
    if (!Array.isArray(node.prefixItems)) return []
    const size = node.prefixItems.length
    return isJson(node.items) && node.minItems === size && node.maxItems === size
      ? []
      : [`${at}: prefixItems without items and minItems = maxItems = ${size}`]
  })

describe("the served OpenAPI documents", () => {
  layer(bothApisServer(), { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect(
      "pass redocly lint with no error and no warning",
      whenMet(["skip" in redocly ? redocly.skip : undefined], () =>
        Effect.gen(function* () {
          if ("skip" in redocly) return
          const documents = yield* servedDocuments
          const folder = tempDir("openapi-lint-")
          for (const name of documentNames) {
            const file = join(folder, `${name}.json`)
            writeFileSync(file, JSON.stringify(documents[name]))
            const report = yield* lint(redocly, file)
            expect(
              report.problems.map((problem) => `${problem.ruleId}: ${problem.message}`),
              name
            ).toEqual([])
            expect(report.totals, name).toMatchObject({ errors: 0, warnings: 0 })
          }
        })
      )
    )

    it.effect("give every bounded schema a plain title and a description of its real bounds", () =>
      Effect.gen(function* () {
        const documents = yield* servedDocuments
        for (const name of documentNames) {
          expect(labelFindings(documents[name]), name).toEqual([])
        }
      })
    )

    it.effect("write tuples as arrays of a fixed size that draft-07 validators read alike", () =>
      Effect.gen(function* () {
        const documents = yield* servedDocuments
        for (const name of documentNames) expect(tupleFindings(documents[name]), name).toEqual([])
        const hit = ((documents.catalog.components as Json).schemas as Json).TranscriptHit as Json
        const highlights = (hit.properties as Json).highlights as Json
        expect(highlights.items).toMatchObject({
          type: "array",
          items: { type: "integer" },
          minItems: 2,
          maxItems: 2
        })
      })
    )

    it("the label check catches a generated title, a lost minimum and a wrong range", () => {
      const samples: Record<DocumentName, Json> = {
        catalog: {
          paths: {},
          components: {
            schemas: {
              A: {
                type: "string",
                title: "maxLength(254)",
                maxLength: 254,
                description: "at most 254 characters"
              },
              B: {
                type: "string",
                title: "Password",
                minLength: 8,
                maxLength: 128,
                description: "at most 128 characters"
              },
              C: { type: "integer", title: "Days", minimum: 1, maximum: 365, description: "Days: 1 to 30." },
              D: { $ref: "#/components/schemas/Int", title: "int" }
            }
          }
        },
        foundation: {
          paths: {},
          components: {
            schemas: {
              E: {
                type: "string",
                title: "Name",
                minLength: 1,
                maxLength: 120,
                description: "1 to 120 characters"
              }
            }
          }
        }
      }
      expect(labelFindings(samples.catalog)).toEqual([
        'components.schemas.A: generated title "maxLength(254)"',
        'components.schemas.B: "at most 128 characters" states 0,128 characters, the schema 8,128',
        'components.schemas.C: "Days: 1 to 30." states 1,30, the schema 1,365',
        'components.schemas.D: generated title "int"'
      ])
      expect(labelFindings(samples.foundation)).toEqual([])
    })
  })
})
