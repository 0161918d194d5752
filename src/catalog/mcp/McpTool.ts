// One tool of our MCP servers, defined by Effect Schemas: arguments are decoded with the input
// schema, results encoded with the output schema, and tools/list shows both as JSON Schema. Every
// failure (bad arguments, unknown slug, bad cursor) is an `isError` result with a clear message.
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import type { ApiError } from "../../http/ApiError.js"
import { badRequestFromParseError } from "../../http/ErrorResponse.js"
import { toolJsonSchema } from "./ToolSchema.js"

export interface ToolSpec<I, II, O, OI> {
  readonly name: string
  readonly title: string
  readonly description: string
  readonly input: Schema.Schema<I, II>
  readonly output: Schema.Schema<O, OI>
  readonly run: (input: I) => Either.Either<O, ApiError>
  /** The text block that accompanies `structuredContent`, for clients that show text only. */
  readonly render: (output: O) => string
}

export interface McpTool {
  readonly definition: Tool
  readonly call: (args: Readonly<Record<string, unknown>> | undefined) => CallToolResult
}

/**
 * Our tools read a static snapshot: nothing changes, repeating a call gives the same answer, and
 * nothing outside the catalog is reached. Set explicitly, because MCP's defaults are the opposite
 * (readOnlyHint false, openWorldHint true).
 */
const readOnlyAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false
} as const

export const toolError = (message: string): CallToolResult => ({
  content: [{ type: "text", text: message }],
  isError: true
})

export const makeTool = <I, II, O, OI extends { readonly [key: string]: unknown }>(
  spec: ToolSpec<I, II, O, OI>
): McpTool => {
  const decode = Schema.decodeUnknownEither(spec.input, { errors: "all" })
  const encode = Schema.encodeSync(spec.output)
  return {
    definition: {
      name: spec.name,
      title: spec.title,
      description: spec.description,
      inputSchema: toolJsonSchema(spec.input),
      outputSchema: toolJsonSchema(spec.output),
      annotations: { title: spec.title, ...readOnlyAnnotations }
    },
    call: (args) => {
      const input = decode(args ?? {})
      if (Either.isLeft(input)) {
        return toolError(
          `Invalid arguments for ${spec.name}: ${badRequestFromParseError(input.left).message}`
        )
      }
      return Either.match(spec.run(input.right), {
        onLeft: (error) => toolError(error.message),
        onRight: (output) => ({
          content: [{ type: "text", text: spec.render(output) }],
          structuredContent: encode(output)
        })
      })
    }
  }
}
