// One tool of our MCP servers, defined by Effect Schemas and registered on the SDK's McpServer: the
// SDK decodes arguments with the input schema (ToolSchema.ts), lists both schemas as JSON Schema and
// checks `structuredContent` against the output schema; we encode results with it and render a text
// block beside them. Every failure of the tool's own (unknown slug, bad cursor) is an `isError`
// result with a clear message, as are arguments the schema refuses (the SDK words those). A tool may
// name its view (an MCP App, catalog-extensions §13), listed only to clients that show views.
import { RESOURCE_URI_META_KEY } from "@modelcontextprotocol/ext-apps/server"
import type {
  CallToolResult,
  McpServer,
  ScopeChallengeHandler,
  ToolAnnotations
} from "@modelcontextprotocol/server"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import type { ApiError } from "../../http/ApiError.js"
import { toolInputSchema, toolOutputSchema } from "./ToolSchema.js"

/** How a server registers a tool for one request. */
export interface ToolRegistration {
  /**
   * From a protected server: what the SDK asks before the call runs, refusing a grant without the
   * scope the tool needs with HTTP 403 (MCP's scope challenge).
   */
  readonly scopeChallenge?: ScopeChallengeHandler
  /** The client shows MCP Apps views: the tool names its view, if it has one. */
  readonly withView: boolean
}

/**
 * A tool as a server registers it, with what each request carries (`Context`: nothing for the
 * public catalog, the caller's grant for a protected server). Everything but the call itself (the
 * schemas, their JSON Schema, the annotations) is built once, with the tool.
 */
export interface McpTool<Context = void> {
  readonly name: string
  readonly register: (server: McpServer, context: Context, registration: ToolRegistration) => void
}

/** Everything a tool's definition says, whatever runs it. */
export interface ToolDefinition<I, II, O, OI> {
  readonly name: string
  readonly title: string
  readonly description: string
  readonly annotations: ToolAnnotations
  readonly input: Schema.Schema<I, II>
  readonly output: Schema.Schema<O, OI>
  /** The text block that accompanies `structuredContent`, for clients that show text only. */
  readonly render: (output: O) => string
  /** The `ui://` resource that shows the tool's results, for clients with the MCP Apps extension. */
  readonly view?: string
}

export interface ToolSpec<I, II, O, OI> extends Omit<ToolDefinition<I, II, O, OI>, "annotations"> {
  readonly run: (input: I) => Either.Either<O, ApiError>
}

/**
 * Our catalog tools read a static snapshot: nothing changes, repeating a call gives the same answer,
 * and nothing outside the catalog is reached. Set explicitly, because MCP's defaults are the opposite
 * (readOnlyHint false, openWorldHint true).
 */
export const readOnlyAnnotations: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false
}

export const toolError = (message: string): CallToolResult => ({
  content: [{ type: "text", text: message }],
  isError: true
})

/**
 * A tool from its definition and `call`, which gets the decoded arguments and the request's context
 * and answers the output, or the message of a tool error.
 */
export const defineTool = <I, II, O, OI, Context>(
  definition: ToolDefinition<I, II, O, OI>,
  call: (input: I, context: Context) => Promise<Either.Either<O, string>> | Either.Either<O, string>
): McpTool<Context> => {
  const encode = Schema.encodeSync(definition.output)
  const answer = (result: Either.Either<O, string>): CallToolResult =>
    Either.match(result, {
      onLeft: toolError,
      onRight: (output) => {
        const structuredContent = encode(output)
        return {
          content: [{ type: "text", text: definition.render(output) }],
          structuredContent: structuredContent as CallToolResult["structuredContent"]
        }
      }
    })
  const config = {
    title: definition.title,
    description: definition.description,
    inputSchema: toolInputSchema(definition.input),
    outputSchema: toolOutputSchema(definition.output),
    annotations: { title: definition.title, ...definition.annotations }
  }
  // The view under both keys, as the extension's registerAppTool writes it: `ui.resourceUri`, and the
  // flat key that hosts of the extension's drafts read.
  const withView =
    definition.view === undefined
      ? config
      : {
          ...config,
          _meta: { ui: { resourceUri: definition.view }, [RESOURCE_URI_META_KEY]: definition.view }
        }
  return {
    name: definition.name,
    register: (server, context, registration) => {
      const listed = registration.withView ? withView : config
      server.registerTool(
        definition.name,
        registration.scopeChallenge === undefined
          ? listed
          : { ...listed, scopeChallenge: registration.scopeChallenge },
        async (input) => answer(await call(input, context))
      )
    }
  }
}

/** A catalog tool: read-only, answered at once from the snapshot, the same for every caller. */
export const makeTool = <I, II, O, OI>(spec: ToolSpec<I, II, O, OI>): McpTool<unknown> =>
  defineTool<I, II, O, OI, unknown>({ ...spec, annotations: readOnlyAnnotations }, (input) =>
    Either.mapLeft(spec.run(input), (error) => error.message)
  )
