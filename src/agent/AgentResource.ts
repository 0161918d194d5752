// The agent session's MCP server (`/mcp/agent`, catalog-extensions §12) as an OAuth protected
// resource: declared once in the service's registry, so the authorization server accepts it as a
// `resource`, serves its RFC 9728 metadata, and binds tokens to it; its 401s point at that metadata.
import type { ScopeChallengeHandler } from "@modelcontextprotocol/server"
import * as Context from "effect/Context"
import type { GrantScope, NotesScope, Scope } from "../foundation/Domain/Common.js"
import type { NotebookScopes } from "../foundation/Notes/Notes.js"
import { currentScopes, type ProtectedResource, ProtectedResources } from "../http/ProtectedResources.js"

export const agentPath = "/mcp/agent"

const notesScopes: ReadonlyArray<NotesScope> = ["notes:read", "notes:write"]

/**
 * Grants approved before the resource had its own scopes hold the foundation's, which then stood for
 * the same tools (catalog-extensions §12): they keep working until they end, read as the notebook's.
 */
const formerScopes = {
  "organizations:read": "notes:read",
  "organizations:write": "notes:write"
} as const satisfies Record<Scope, NotesScope>

export class AgentResource extends Context.Tag("AgentResource")<AgentResource, ProtectedResource>() {
  static readonly layer = ProtectedResources.declare(AgentResource, {
    path: agentPath,
    name: "Podcast agent session (MCP): the catalog and the organization's notebook",
    scopes: notesScopes,
    formerScopes,
    challengeScopes: true,
    // Every member may grant both (catalog-extensions §12); what a member may delete is the notebook's rule.
    scopeDescriptions: {
      "notes:read": "Search and read the podcast catalog, and read the organization's notebook.",
      "notes:write":
        "Add notes to the organization's notebook, and delete the notes you saved (any note, if you are an owner or admin)."
    } satisfies Record<NotesScope, string>
  })
}

/** What the notebook asks of a token for this resource. */
export const agentNotebookScopes: NotebookScopes = { read: "notes:read", write: "notes:write" }

/** The tools that change the notebook; every other tool of the session reads. */
const writingTools: ReadonlySet<string> = new Set(["save_note", "delete_note"])

/**
 * What a tool call needs of the grant, checked by the SDK before the call runs: `notes:write` for
 * the tools that change the notebook, `notes:read` for the others. A grant without it is refused
 * with HTTP 403 `insufficient_scope` naming the scopes to ask for (catalog-extensions §12: both
 * notebook scopes for a write, since an agent that writes notes also reads them), so the client can
 * ask the person for more; nothing runs.
 */
export const agentScopeChallenge = (tool: string): ScopeChallengeHandler => {
  const write = writingTools.has(tool)
  const needed: NotesScope = write ? "notes:write" : "notes:read"
  const scopes: readonly [NotesScope, ...Array<NotesScope>] = write
    ? ["notes:read", "notes:write"]
    : ["notes:read"]
  const errorDescription = `${tool} needs the ${needed} scope`
  return ({ authInfo }) =>
    authInfo === undefined || authInfo.scopes.includes(needed) ? undefined : { scopes, errorDescription }
}

/**
 * The scopes a token for this resource holds, in the notebook's words (the former scopes of old
 * grants read as `notes:read` and `notes:write`). New grants can only hold the notebook's scopes.
 */
export const agentScopes = (granted: ReadonlyArray<GrantScope>): ReadonlyArray<GrantScope> =>
  currentScopes(notesScopes, formerScopes, granted)
