// Which redirect URIs a client may have and how a presented one is matched (extensions §8): exact
// match; `https`, loopback `http` on any port (RFC 8252 §7.3) or a private-use scheme (RFC 8252
// §7.1). WHATWG URL parsing does the parsing; the rules are these lines.

const loopbackHosts = new Set(["127.0.0.1", "[::1]", "localhost"])
/** Schemes that are not private-use schemes of an app, whatever else they contain. */
const forbiddenSchemes = new Set([
  "javascript:",
  "data:",
  "vbscript:",
  "file:",
  "blob:",
  "about:",
  "ftp:",
  "ws:",
  "wss:"
])

/** Why a redirect URI may not be registered, in words for the client's developer. */
export type RedirectUriProblem =
  | "is not an absolute URI"
  | "has a fragment"
  | "carries credentials"
  | "must be https, http on a loopback address, or a private-use scheme"
  | "is not in normalized form"

export const isLoopbackHost = (hostname: string): boolean => loopbackHosts.has(hostname)

/** Why `uri` may not be a redirect URI, or undefined when it may. */
export const redirectUriProblem = (uri: string): RedirectUriProblem | undefined => {
  const url = URL.parse(uri)
  if (url === null) return "is not an absolute URI"
  if (uri.includes("#")) return "has a fragment"
  if (url.username !== "" || url.password !== "") return "carries credentials"
  if (url.protocol === "https:" || url.protocol === "http:") {
    if (url.hostname === "") return "is not an absolute URI"
    if (url.protocol === "http:" && !isLoopbackHost(url.hostname)) {
      return "must be https, http on a loopback address, or a private-use scheme"
    }
    // Exact matching compares text: a URI that URL parsing would rewrite could never match.
    return url.href === uri ? undefined : "is not in normalized form"
  }
  // Private-use schemes are reverse domain names (com.example.app:/callback), so they hold a dot.
  if (forbiddenSchemes.has(url.protocol) || !url.protocol.slice(0, -1).includes(".")) {
    return "must be https, http on a loopback address, or a private-use scheme"
  }
  return undefined
}

/** Exact match, except that a loopback `http` redirect URI may come back on any port (RFC 8252 §7.3). */
export const redirectUriMatches = (registered: ReadonlyArray<string>, presented: string): boolean => {
  if (registered.includes(presented)) return true
  const url = URL.parse(presented)
  if (url === null || url.protocol !== "http:" || !isLoopbackHost(url.hostname)) return false
  return registered.some((candidate) => {
    const other = URL.parse(candidate)
    if (other === null || other.protocol !== "http:" || other.hostname !== url.hostname) return false
    // Port aside, the two must be the very same text.
    other.port = url.port
    return other.href === presented
  })
}

/**
 * The `form-action` source that lets the consent form's redirect reach `uri`: its origin for http(s),
 * its scheme for a private-use scheme (browsers apply `form-action` to the redirect after a submission).
 */
export const formTargetOf = (uri: string): string | undefined => {
  const url = URL.parse(uri)
  if (url === null) return undefined
  return url.protocol === "https:" || url.protocol === "http:" ? url.origin : url.protocol
}
