// Who may call the MCP endpoints: protection against DNS rebinding, which the MCP specification
// asks servers to apply and which the SDK's own option (deprecated in 1.32) no longer covers.
// - Host: the request's host name must be a loopback name, the address the server listens on,
//   the host of PUBLIC_ORIGIN, or one of MCP_ALLOWED_HOSTS. A page on a rebound
//   domain sends its own name as Host, so it is refused.
// - Origin: absent (command-line clients, server-side agents) or one of MCP_ALLOWED_ORIGINS.
//   Allowed browser origins also get the CORS headers they need to make the call at all.
import { Forbidden } from "../../http/ApiError.js"

export interface McpAccessSettings {
  /** The HOST the server listens on; wildcards (0.0.0.0, ::) add nothing. */
  readonly listenHost: string
  /** The origin the service answers from, PUBLIC_ORIGIN (its host is how the public reaches us). */
  readonly publicUrl: string
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
  const publicHost = URL.canParse(settings.publicUrl)
    ? hostNameOf(new URL(settings.publicUrl).host)
    : undefined
  if (publicHost !== undefined) hosts.add(publicHost)
  for (const host of settings.allowedHosts) {
    const name = hostNameOf(host.trim())
    if (name !== undefined) hosts.add(name)
  }
  const origins = new Set(settings.allowedOrigins.flatMap((origin) => normalizeOrigin(origin.trim()) ?? []))
  const originAllowed = (origin: string) => {
    const normalized = normalizeOrigin(origin)
    return normalized !== undefined && origins.has(normalized)
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
