// Who may call the MCP endpoints: protection against DNS rebinding, which the MCP specification
// asks servers to apply and which the SDK's handler leaves to whoever mounts it.
// - Host: the request's host name must be a loopback name, the address the server listens on, the
//   host of PUBLIC_ORIGIN, or one of MCP_ALLOWED_HOSTS. A page on a rebound domain sends its own
//   name as Host, so it is refused.
// - Origin: absent (command-line clients, server-side agents), the service's own PUBLIC_ORIGIN, any
//   loopback origin when the deployment itself is on loopback (it listens there or its public origin
//   is there: a rebinding page can only reach a loopback server from a non-loopback origin), or one
//   of MCP_ALLOWED_ORIGINS (catalog-extensions §7). Allowed browser origins also get the CORS headers
//   they need to make the call at all.
import { Forbidden } from "../../http/ApiError.js"

export interface McpAccessSettings {
  /** The HOST the server listens on; wildcards (0.0.0.0, ::) add nothing. */
  readonly listenHost: string
  /**
   * The service's PUBLIC_ORIGIN: its host is how the public reaches us, and its own pages and clients
   * call from there.
   */
  readonly publicOrigin: string
  readonly allowedHosts: ReadonlyArray<string>
  readonly allowedOrigins: ReadonlyArray<string>
}

export interface McpAccess {
  /** Why the request is refused, or undefined when it may proceed. */
  readonly refusal: (headers: Readonly<Record<string, string | undefined>>) => Forbidden | undefined
  /** Headers for an allowed browser origin (none for requests without Origin). */
  readonly corsHeaders: (origin: string | undefined) => Record<string, string>
}

const loopbackNames = ["localhost", "127.0.0.1", "::1"]

/** Whether a host name (as `hostNameOf` gives it) is a loopback one: localhost, 127.0.0.0/8, ::1. */
const isLoopback = (name: string) =>
  name === "localhost" || name.endsWith(".localhost") || name === "::1" || /^127(\.\d{1,3}){3}$/.test(name)
const wildcardAddresses = new Set(["0.0.0.0", "::", ""])

/** The host name of a Host header value (`name:port`, `[v6]:port`), lowercase, without brackets. */
export const hostNameOf = (host: string): string | undefined => {
  try {
    const name = new URL(`http://${host}`).hostname.toLowerCase()
    return name.startsWith("[") && name.endsWith("]") ? name.slice(1, -1) : name
  } catch {
    return undefined
  }
}

/** `scheme://host[:port]` as browsers send it, or undefined for something that is not an origin. */
const normalizeOrigin = (origin: string): string | undefined => {
  try {
    const url = new URL(origin)
    return url.origin === "null" ? undefined : url.origin
  } catch {
    return undefined
  }
}

export const makeMcpAccess = (settings: McpAccessSettings): McpAccess => {
  const hosts = new Set<string>(loopbackNames)
  const listen = hostNameOf(settings.listenHost) ?? ""
  if (!wildcardAddresses.has(listen)) hosts.add(listen)
  const publicOriginHost = URL.canParse(settings.publicOrigin)
    ? hostNameOf(new URL(settings.publicOrigin).host)
    : undefined
  if (publicOriginHost !== undefined) hosts.add(publicOriginHost)
  for (const host of settings.allowedHosts) {
    const name = hostNameOf(host.trim())
    if (name !== undefined) hosts.add(name)
  }
  const origins = new Set(
    [settings.publicOrigin, ...settings.allowedOrigins].flatMap(
      (origin) => normalizeOrigin(origin.trim()) ?? []
    )
  )
  const onLoopback = isLoopback(listen) || (publicOriginHost !== undefined && isLoopback(publicOriginHost))
  const originAllowed = (origin: string) => {
    const normalized = normalizeOrigin(origin)
    if (normalized === undefined) return false
    if (origins.has(normalized)) return true
    if (!onLoopback) return false
    const url = new URL(normalized)
    const name = hostNameOf(url.host)
    return (url.protocol === "http:" || url.protocol === "https:") && name !== undefined && isLoopback(name)
  }

  return {
    refusal: (headers) => {
      const host = headers.host
      const name = host === undefined ? undefined : hostNameOf(host)
      if (name === undefined || !hosts.has(name)) {
        return new Forbidden({
          message: `Host "${host ?? ""}" is not allowed to call the MCP server; set MCP_ALLOWED_HOSTS to add it.`,
          data: { host: host ?? null }
        })
      }
      const origin = headers.origin
      if (origin !== undefined && !originAllowed(origin)) {
        return new Forbidden({
          message: `Origin "${origin}" is not allowed to call the MCP server; set MCP_ALLOWED_ORIGINS to add it.`,
          data: { origin }
        })
      }
      return undefined
    },
    corsHeaders: (origin) =>
      origin === undefined || !originAllowed(origin)
        ? {}
        : {
            "access-control-allow-origin": origin,
            "access-control-expose-headers": "mcp-session-id, mcp-protocol-version",
            vary: "Origin"
          }
  }
}
