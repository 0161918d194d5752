// A tool of the agent session, defined like the catalog's (Effect Schemas for arguments and results,
// JSON Schema for tools/list, structuredContent with a text rendering), but run as an Effect for the
// caller's OAuth grant, and annotated with what it really does: note writes change the notebook.
// Every failure is an `isError` result whose message says what went wrong; a defect is logged and
// answered as an unexpected error, revealing nothing of it.
import type { ToolAnnotations } from "@modelcontextprotocol/server"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Runtime from "effect/Runtime"
import * as Schema from "effect/Schema"
import { defineTool, type McpTool, readOnlyAnnotations, type ToolDefinition } from "../catalog/mcp/McpTool.js"
import type { OAuthPrincipal } from "../foundation/Security/Principal.js"

/** What a tool of the agent session is called with: the grant the request's token belongs to. */
export interface AgentCall {
  readonly principal: OAuthPrincipal
}

/** How a reading tool behaves, for clients deciding whether to ask the person first (MCP annotations). */
export const readingAnnotations: ToolAnnotations = readOnlyAnnotations

export interface AgentToolSpec<I, II, O, OI> extends ToolDefinition<I, II, O, OI> {
  /** The tool's work; fails with a message for the agent. */
  readonly run: (input: I, call: AgentCall) => Effect.Effect<O, ToolFailure>
}

/** A failure the agent reads: what was wrong, in a sentence. */
export class ToolFailure extends Schema.TaggedError<ToolFailure>()("ToolFailure", {
  message: Schema.String
}) {}

export const makeAgentTool = <I, II, O, OI>(
  runtime: Runtime.Runtime<never>,
  spec: AgentToolSpec<I, II, O, OI>
): McpTool<AgentCall> => {
  const run = Runtime.runPromise(runtime)
  return defineTool<I, II, O, OI, AgentCall>(spec, (input, call) =>
    run(
      spec.run(input, call).pipe(
        Effect.match({
          onFailure: (failure) => Either.left(failure.message),
          onSuccess: (output) => Either.right(output)
        }),
        Effect.catchAllCause((cause) =>
          Effect.as(
            Effect.logError(`${spec.name} failed unexpectedly`, Cause.pretty(cause)),
            Either.left(`${spec.name} failed unexpectedly; try again later.`)
          )
        )
      )
    )
  )
}
