// Builds one MCP server from our tool and resource definitions. We use the SDK's low-level `Server`
// (marked deprecated in favour of `McpServer`, and kept "for advanced use cases") because
// `McpServer.registerTool` only takes zod schemas, and ours are the catalog's Effect Schemas: we
// publish their JSON Schema and decode arguments with them, with no second schema in zod.
// A server is cheap to build: the stateless endpoint builds one per HTTP request.
import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type ReadResourceResult,
  type Resource,
  type Tool
} from "@modelcontextprotocol/sdk/types.js"
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv"
import type { McpTool } from "./McpTool.js"

export interface McpResources {
  readonly list: ReadonlyArray<Resource>
  /** The resource at `uri`, or undefined when there is none. */
  readonly read: (uri: string) => ReadResourceResult | undefined
}

/**
 * A tool as a server calls it: with what the request carries (`Context`: nothing for the public
 * catalog, the caller's credential for a protected server), answering at once or later.
 */
export interface ServedTool<Context> {
  readonly definition: Tool
  readonly call: (
    args: Readonly<Record<string, unknown>> | undefined,
    context: Context
  ) => CallToolResult | Promise<CallToolResult>
}

export interface ToolServerOptions<Context = void> {
  readonly name: string
  readonly title: string
  readonly version: string
  /** Shown to the model by clients that pass server instructions on. */
  readonly instructions: string
  readonly tools: ReadonlyArray<McpTool | ServedTool<Context>>
  readonly resources?: McpResources
}

/**
 * A factory of servers sharing the definitions computed once (JSON Schemas included); each server
 * hands its tools the `context` it was built with.
 */
export const makeToolServerFactory = <Context = void>(
  options: ToolServerOptions<Context>
): ((context: Context) => Server) => {
  const toolsByName = new Map(options.tools.map((tool) => [tool.definition.name, tool]))
  const definitions = options.tools.map((tool) => tool.definition)
  const resources = options.resources
  // Our servers never validate JSON Schemas (that is for elicitation), but each Server would build
  // its own Ajv instance, the costliest part of building one: all of them share this one.
  const jsonSchemaValidator = new AjvJsonSchemaValidator()
  return (context) => {
    const server = new Server(
      { name: options.name, title: options.title, version: options.version },
      {
        capabilities: resources === undefined ? { tools: {} } : { tools: {}, resources: {} },
        instructions: options.instructions,
        jsonSchemaValidator
      }
    )
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: definitions }))
    server.setRequestHandler(CallToolRequestSchema, (request) => {
      const tool = toolsByName.get(request.params.name)
      // An unknown tool is a protocol error (the MCP specification says so), not a tool result.
      if (tool === undefined) {
        throw new McpError(
          ErrorCode.InvalidParams,
          `Unknown tool "${request.params.name}"; tools/list names the tools: ${[...toolsByName.keys()].join(", ")}`
        )
      }
      return tool.call(request.params.arguments, context)
    })
    if (resources !== undefined) {
      server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: [...resources.list] }))
      server.setRequestHandler(ReadResourceRequestSchema, (request) => {
        const found = resources.read(request.params.uri)
        if (found === undefined) {
          // -32002 is the code the MCP specification gives to "resource not found".
          throw new McpError(
            -32002,
            `No resource has the URI "${request.params.uri}"; resources/list names them.`,
            {
              uri: request.params.uri
            }
          )
        }
        return found
      })
    }
    return server
  }
}
