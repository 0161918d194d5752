// Whether the client of an MCP request declared the MCP Apps extension (`io.modelcontextprotocol/ui`,
// catalog-extensions §13) with the one view type we serve. Only then do the tools name their view and
// the server offer it; every other client gets exactly the answers it got before the extension.
//
// The 2026-07-28 revision carries the client's capabilities on every request (the `_meta` envelope),
// so each request can be answered for its client. The 2025 revisions declare them once, in
// `initialize`; served statelessly, their later requests (tools/list, tools/call) cannot be told
// apart from those of a client without the extension, so they are all answered as before.
import { getUiCapability, RESOURCE_MIME_TYPE } from "@modelcontextprotocol/ext-apps/server"
import { CLIENT_CAPABILITIES_META_KEY, type ClientCapabilities } from "@modelcontextprotocol/server"

/** What the client of one request declared that changes what a server offers it. */
export interface ClientFeatures {
  /** It shows MCP Apps views (`text/html;profile=mcp-app`). */
  readonly apps: boolean
}

export const withoutFeatures: ClientFeatures = { apps: false }

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** Whether `capabilities` declare the extension with our view's MIME type. */
export const declaresApps = (capabilities: unknown): boolean => {
  if (!isObject(capabilities)) return false
  const apps = getUiCapability(capabilities as ClientCapabilities)
  return isObject(apps) && Array.isArray(apps.mimeTypes) && apps.mimeTypes.includes(RESOURCE_MIME_TYPE)
}

/**
 * What the client of a 2026-07-28 request declared, read from its envelope. The SDK checks the
 * envelope before any server is built and refuses a malformed one, so this only has to read it.
 */
export const featuresOfModernRequest = (body: unknown): ClientFeatures => {
  if (!isObject(body) || !isObject(body.params) || !isObject(body.params._meta)) return withoutFeatures
  return { apps: declaresApps(body.params._meta[CLIENT_CAPABILITIES_META_KEY]) }
}
