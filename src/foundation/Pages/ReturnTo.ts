// Where a page flow goes back to after signing in (extensions §9): only a path of this service, so
// no page can be used to send people to another site (an open redirect). The decision is made on
// what a browser would navigate to, not on the text as given: the value is resolved by the WHATWG
// URL parser (which strips tabs and newlines, reads `\` as `/`, decodes `%2e` in dot segments and
// removes dot segments), and what is given back is that resolved path, checked again as a browser
// will read it in the `Location` header. `/..//evil.example` resolves to the path `//evil.example`,
// which a browser reads as another host: refused.

/** Percent-decodes `text` until it no longer changes; undefined when it does not decode or never settles. */
const fullyDecoded = (text: string): string | undefined => {
  let current = text
  for (let round = 0; round < 4; round++) {
    let next: string
    try {
      next = decodeURIComponent(current)
    } catch {
      return undefined
    }
    if (next === current) return current
    current = next
  }
  return undefined
}

/**
 * True when a path, however often it is percent-decoded, is still a plain path of this origin: no
 * `//` or `/\` at its start, no backslash or control character, no dot segment. A browser does not
 * decode `%2f` or `%5c` in a path, but a proxy or a later redirect might; such a path has no place
 * among this service's pages, so it is refused rather than trusted.
 */
const plainPath = (pathname: string): boolean => {
  const decoded = fullyDecoded(pathname)
  if (decoded === undefined || !decoded.startsWith("/") || decoded.startsWith("//")) return false
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused.
  if (/[\\\u0000-\u001f\u007f]/.test(decoded)) return false
  return decoded.split("/").every((segment) => segment !== "." && segment !== "..")
}

/**
 * `value` as a path and query of `origin` after every decoding and normalisation a browser would
 * apply, or `/` when it is missing or would lead anywhere else. The answer resolves to itself: a
 * browser sent to it goes to exactly that path of `origin`.
 */
export const safeReturnTo = (value: string | undefined, origin: string): string => {
  // Only a path: as the URL parser reads it (without the spaces, controls, tabs and newlines it
  // ignores), it starts with `/`, so it names neither a scheme nor, once checked below, a host.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the characters the URL parser ignores.
  if (value?.replace(/^[\u0000-\u0020]+|[\t\n\r]/g, "").startsWith("/") !== true) return "/"
  const url = URL.parse(value, origin)
  if (url === null || url.origin !== origin || !plainPath(url.pathname)) return "/"
  const path = `${url.pathname}${url.search}`
  // What the browser will do with the answer: it must be this very path of this origin.
  const again = URL.parse(path, origin)
  return again !== null && again.origin === origin && `${again.pathname}${again.search}` === path ? path : "/"
}

/** The sign-in page that comes back to `returnTo` afterwards. */
export const signInPath = (returnTo: string): string => `/sign-in?return_to=${encodeURIComponent(returnTo)}`
