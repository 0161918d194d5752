// A tool's Effect Schema as the MCP SDK takes schemas: Standard Schema (`~standard.validate`) with its
// JSON Schema converter (`~standard.jsonSchema`), the interface the SDK's `registerTool` accepts from
// any schema library. The catalog's Schema classes stay the one source of truth: tools/list shows
// their JSON Schema (derived by `effect/JSONSchema`), arguments are decoded by them, and
// `structuredContent` is checked against them. See docs/decisions/mcp-sdk-v2.md.

import type { StandardSchemaWithJSON } from "@modelcontextprotocol/server"
import * as Either from "effect/Either"
import * as JSONSchema from "effect/JSONSchema"
import type * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { issuesOfParseError } from "../../http/ErrorResponse.js"

/** What MCP requires of a tool's `inputSchema` and `outputSchema`: an object schema at the top. */
export interface ObjectJsonSchema {
  readonly [key: string]: unknown
  readonly type: "object"
}

/** The JSON Schema dialects a converter is asked for (Standard JSON Schema's targets) and ours for each. */
const dialects = {
  "draft-2020-12": { target: "jsonSchema2020-12", uri: "https://json-schema.org/draft/2020-12/schema" },
  "draft-07": { target: "jsonSchema7", uri: "http://json-schema.org/draft-07/schema#" }
} as const

type Dialect = keyof typeof dialects

const isDialect = (target: string): target is Dialect => target in dialects

/**
 * The encoded side of `schema` as JSON Schema of one dialect: what goes over the wire as tool
 * arguments or `structuredContent`. Named sub-schemas (Slug, Cursor…) land in `$defs`; the top level
 * is inlined. The SDK asks for 2020-12, the dialect MCP assumes when a schema names none.
 */
export const toolJsonSchema = <A, I>(
  schema: Schema.Schema<A, I>,
  dialect: Dialect = "draft-2020-12"
): ObjectJsonSchema => {
  const definitions: Record<string, JSONSchema.JsonSchema7> = {}
  const top: object = JSONSchema.fromAST(schema.ast, {
    definitions,
    target: dialects[dialect].target,
    topLevelReferenceStrategy: "skip"
  })
  if (!("type" in top) || top.type !== "object") {
    // A programming error in a tool definition, found when the server starts.
    throw new Error(`an MCP tool schema must describe an object, got ${JSON.stringify(top)}`)
  }
  return {
    $schema: dialects[dialect].uri,
    ...top,
    type: "object",
    ...(Object.keys(definitions).length > 0 ? { $defs: definitions } : {})
  }
}

/** The JSON Schema of `schema` in each dialect, each built once (tools/list asks on every request). */
const jsonSchemaConverter = <A, I>(schema: Schema.Schema<A, I>) => {
  const built = new Map<Dialect, ObjectJsonSchema>()
  const convert = ({ target }: { readonly target: string }): Record<string, unknown> => {
    if (!isDialect(target)) throw new Error(`no JSON Schema for the dialect ${target}`)
    const known = built.get(target)
    if (known !== undefined) return known
    const made = toolJsonSchema(schema, target)
    built.set(target, made)
    return made
  }
  // Arguments and structuredContent are both the encoded side: one schema serves as input and output.
  return { input: convert, output: convert }
}

/** Standard Schema's issues from a failed decoding, worded as the REST API words them. */
const issuesOf = (error: ParseResult.ParseError) => {
  const issues = issuesOfParseError(error)
  return issues.length > 0 ? issues : [{ message: "the value could not be decoded" }]
}

/** A schema for the SDK from `check`, which decodes or checks a value by `schema`, and its JSON Schema. */
const standardSchema = <A, I, Checked>(
  schema: Schema.Schema<A, I>,
  check: (value: unknown) => Either.Either<Checked, ParseResult.ParseError>
): StandardSchemaWithJSON<I, Checked> => ({
  "~standard": {
    version: 1,
    vendor: "effect",
    validate: (value) =>
      Either.match(check(value), {
        onLeft: (error) => ({ issues: issuesOf(error) }),
        onRight: (checked) => ({ value: checked })
      }),
    jsonSchema: jsonSchemaConverter(schema)
  }
})

/**
 * A tool's input schema for the SDK: arguments are decoded by `schema` (the handler receives the
 * decoded value) and listed as its JSON Schema.
 */
export const toolInputSchema = <A, I>(schema: Schema.Schema<A, I>): StandardSchemaWithJSON<I, A> =>
  standardSchema(schema, Schema.decodeUnknownEither(schema, { errors: "all" }))

/**
 * A tool's output schema for the SDK, which checks every `structuredContent` against it before
 * answering: the value is checked as it goes over the wire (the encoded side, refinements included)
 * and passed on unchanged, since it was just encoded by this schema.
 */
export const toolOutputSchema = <A, I>(schema: Schema.Schema<A, I>): StandardSchemaWithJSON<I, I> =>
  standardSchema(schema, Schema.validateEither(Schema.encodedBoundSchema(schema), { errors: "all" }))
