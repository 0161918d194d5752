// The agent session's MCP server (`/mcp/agent`, catalog-extensions §12) as an OAuth protected
// resource: declared once in the service's registry, so the authorization server accepts it as a
// `resource`, serves its RFC 9728 metadata, and binds tokens to it; its 401s point at that metadata.
import * as Context from "effect/Context"
import { type ProtectedResource, ProtectedResources } from "../http/ProtectedResources.js"

export const agentPath = "/mcp/agent"

export class AgentResource extends Context.Tag("AgentResource")<AgentResource, ProtectedResource>() {
  static readonly layer = ProtectedResources.declare(AgentResource, {
    path: agentPath,
    name: "Podcast agent session (MCP): the catalog and the organization's notebook",
    scopes: ["organizations:read", "organizations:write"]
  })
}
