// The JSON Schema of an MCP tool's input or output, derived from the catalog's Effect Schema with
// `JSONSchema`, so tools/list can never disagree with what the tools decode and return. Draft-07,
// named by `$schema`: the dialect the MCP SDK emits for its own tools and validates results with.
import * as JSONSchema from "effect/JSONSchema"
import type * as Schema from "effect/Schema"

/** What MCP requires of a tool's `inputSchema` and `outputSchema`: an object schema at the top. */
export interface ObjectJsonSchema {
  readonly [key: string]: unknown
  readonly type: "object"
}

const draft07 = "http://json-schema.org/draft-07/schema#"

/**
 * The encoded side of `schema` as JSON Schema: what goes over the wire as tool arguments or
 * `structuredContent`. Named sub-schemas (Slug, Cursor…) land in `$defs`; the top level is inlined.
 */
export const toolJsonSchema = <A, I>(schema: Schema.Schema<A, I>): ObjectJsonSchema => {
  const definitions: Record<string, JSONSchema.JsonSchema7> = {}
  const top: object = JSONSchema.fromAST(schema.ast, {
    definitions,
    target: "jsonSchema7",
    topLevelReferenceStrategy: "skip"
  })
  if (!("type" in top) || top.type !== "object") {
    // A programming error in a tool definition, found when the server starts.
    throw new Error(`an MCP tool schema must describe an object, got ${JSON.stringify(top)}`)
  }
  return {
    $schema: draft07,
    ...top,
    type: "object",
    ...(Object.keys(definitions).length > 0 ? { $defs: definitions } : {})
  }
}
