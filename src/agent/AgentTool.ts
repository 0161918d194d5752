// A tool of the agent session, defined like the catalog's (Effect Schemas for arguments and results,
// JSON Schema for tools/list, structuredContent with a text rendering), but run as an Effect for the
// caller's OAuth grant, and annotated with what it really does: note writes change the notebook.
// Every failure is an `isError` result whose message says what went wrong; a defect is logged and
// answered as an unexpected error, revealing nothing of it.
import type { CallToolResult, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Runtime from "effect/Runtime"
import * as Schema from "effect/Schema"
import { toolError } from "../catalog/mcp/McpTool.js"
import { toolJsonSchema } from "../catalog/mcp/ToolSchema.js"
import type { ServedTool } from "../catalog/mcp/ToolServer.js"
import type { OAuthPrincipal } from "../foundation/Security/Principal.js"
import { badRequestFromParseError } from "../http/ErrorResponse.js"

/** What a tool of the agent session is called with: the grant the request's token belongs to. */
export interface AgentCall {
  readonly principal: OAuthPrincipal
}

/** How a tool behaves, for clients deciding whether to ask the person first (MCP annotations). */
export const readingAnnotations: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false
}

export interface AgentToolSpec<I, II, O, OI> {
  readonly name: string
  readonly title: string
  readonly description: string
  readonly annotations: ToolAnnotations
  readonly input: Schema.Schema<I, II>
  readonly output: Schema.Schema<O, OI>
  /** The tool's work; fails with a message for the agent. */
  readonly run: (input: I, call: AgentCall) => Effect.Effect<O, ToolFailure>
  readonly render: (output: O) => string
}

/** A failure the agent reads: what was wrong, in a sentence. */
export class ToolFailure extends Schema.TaggedError<ToolFailure>()("ToolFailure", {
  message: Schema.String
}) {}

export const makeAgentTool = <I, II, O, OI extends { readonly [key: string]: unknown }>(
  runtime: Runtime.Runtime<never>,
  spec: AgentToolSpec<I, II, O, OI>
): ServedTool<AgentCall> => {
  const decode = Schema.decodeUnknownEither(spec.input, { errors: "all" })
  const encode = Schema.encodeSync(spec.output)
  const run = Runtime.runPromise(runtime)
  return {
    definition: {
      name: spec.name,
      title: spec.title,
      description: spec.description,
      inputSchema: toolJsonSchema(spec.input),
      outputSchema: toolJsonSchema(spec.output),
      annotations: { title: spec.title, ...spec.annotations }
    },
    call: (args, call) => {
      const input = decode(args ?? {})
      if (Either.isLeft(input)) {
        return toolError(
          `Invalid arguments for ${spec.name}: ${badRequestFromParseError(input.left).message}`
        )
      }
      return run(
        spec.run(input.right, call).pipe(
          Effect.match({
            onFailure: (failure): CallToolResult => toolError(failure.message),
            onSuccess: (output): CallToolResult => ({
              content: [{ type: "text", text: spec.render(output) }],
              structuredContent: encode(output)
            })
          }),
          Effect.catchAllCause((cause) =>
            Effect.as(
              Effect.logError(`${spec.name} failed unexpectedly`, Cause.pretty(cause)),
              toolError(`${spec.name} failed unexpectedly; try again later.`)
            )
          )
        )
      )
    }
  }
}
