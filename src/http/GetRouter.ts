// GET routes found exactly as the platform's router finds them (find-my-way with its default
// options, which HttpApi routers use), with a shortcut for the URLs clients actually send: a
// find-my-way lookup per request measurably lowered the fast path's ratio to raw node:http in the
// catalog bench. The shortcut looks a plain URL up among the static routes and the routes that end
// in one parameter, and leaves every other URL, and every URL it does not find, to find-my-way.
// test/http/GetRouter.test.ts checks that the two agree on random URLs.
import * as FindMyWay from "find-my-way-ts"
import * as QueryString from "find-my-way-ts/QueryString"

export interface GetRouter<A> {
  /** The route of a GET (or HEAD) to `url`, a path with its query string. */
  readonly find: (url: string) => FindMyWay.FindResult<A> | undefined
}

/** find-my-way's default bound on a parameter's length: longer ones miss the route. */
const maxParamLength = 100

/** `/prefix/:name`: a static prefix ending in a slash, then one plain parameter. */
const trailingParameter = /^((?:\/[a-z0-9._~-]+)*\/):([A-Za-z0-9_]+)$/

/**
 * Whether find-my-way would match `url` as it is: no percent-encoding (decoded), `;` or `#` (which
 * also end the path), upper case (matched case-insensitively) in the path, and no repeated slashes
 * anywhere (merged, in the query string too).
 */
const isPlain = (url: string): boolean => {
  let inPath = true
  let previous = 0
  for (let i = 0; i < url.length; i++) {
    const c = url.charCodeAt(i)
    if (c === 47 && previous === 47) return false
    if (c === 63) inPath = false
    // %, #, ;, A-Z
    else if (inPath && (c === 37 || c === 35 || c === 59 || (c >= 65 && c <= 90))) return false
    previous = c
  }
  return true
}

/** The query of a URL without one, as find-my-way's parser gives it: no names. */
const noQuery = Object.freeze(QueryString.parse(""))

export const makeGetRouter = <A>(
  routes: ReadonlyArray<readonly [path: `/${string}`, handler: A]>
): GetRouter<A> => {
  const router = FindMyWay.make<A>()
  const statics = new Map<string, A>()
  const parametric: Array<{ readonly prefix: string; readonly name: string; readonly handler: A }> = []
  for (const [path, handler] of routes) {
    router.on("GET", path, handler)
    if (!path.includes(":") && !path.includes("*")) {
      // The root aside, find-my-way ignores a trailing slash, so either spelling is the route.
      if (path.length === 1 || !path.endsWith("/")) statics.set(path.toLowerCase(), handler)
      continue
    }
    const match = trailingParameter.exec(path.toLowerCase())
    if (match?.[1] !== undefined && match[2] !== undefined) {
      parametric.push({ prefix: match[1], name: path.slice(path.lastIndexOf(":") + 1), handler })
    }
  }

  const shortcut = (url: string): FindMyWay.FindResult<A> | undefined => {
    if (url.charCodeAt(0) !== 47 || !isPlain(url)) return undefined
    const q = url.indexOf("?")
    const path = q === -1 ? url : url.slice(0, q)
    const searchParams = q === -1 ? noQuery : QueryString.parse(url.slice(q + 1))
    const exact = statics.get(path)
    if (exact !== undefined) return { handler: exact, params: {}, searchParams }
    for (const route of parametric) {
      if (!path.startsWith(route.prefix)) continue
      const value = path.slice(route.prefix.length)
      // A value with a slash belongs to a deeper route.
      if (value.includes("/")) continue
      // Empty (a trailing slash, which find-my-way drops) or too long: find-my-way decides.
      if (value === "" || value.length > maxParamLength) return undefined
      // A keyed store, which V8 caches per name; a computed key in the literal costs far more.
      const params: Record<string, string> = {}
      params[route.name] = value
      return { handler: route.handler, params, searchParams }
    }
    return undefined
  }

  return { find: (url) => shortcut(url) ?? router.find("GET", url) }
}
