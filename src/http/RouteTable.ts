// Which methods each path of an API accepts, so that a miss on a known path answers 405 with
// `Allow` rather than 404. Built once per API from its endpoint definitions.
import * as HttpApi from "@effect/platform/HttpApi"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as FindMyWay from "find-my-way-ts"

export interface RouteTable {
  /** Methods accepted at this URL (HEAD included wherever GET is), or empty for an unknown path. */
  readonly allowedMethods: (url: string) => ReadonlyArray<string>
}

const methods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const

export interface RouteDefinition {
  readonly method: string
  readonly path: `/${string}`
}

export const makeRouteTable = (
  routes: Iterable<RouteDefinition>,
  config: { readonly maxParamLength?: number } = {}
): RouteTable => {
  const router = FindMyWay.make<true>({ ignoreTrailingSlash: false, ...config })
  const registered = new Set<string>()
  for (const { method, path } of routes) {
    const key = `${method} ${path}`
    if (registered.has(key)) continue
    registered.add(key)
    router.on(method, path, true)
    if (method === "GET" && !registered.has(`HEAD ${path}`)) {
      registered.add(`HEAD ${path}`)
      router.on("HEAD", path, true)
    }
  }
  return {
    allowedMethods: (url) => methods.filter((method) => router.find(method, url) !== undefined)
  }
}

/** The endpoints of an HttpApi as route definitions. */
export const apiRoutes = <Id extends string, Groups extends HttpApiGroup.HttpApiGroup.Any, E, R>(
  api: HttpApi.HttpApi<Id, Groups, E, R>
): Array<RouteDefinition> => {
  const routes: Array<RouteDefinition> = []
  HttpApi.reflect(api, {
    onGroup: () => {},
    onEndpoint: ({ endpoint }) => {
      routes.push({ method: endpoint.method, path: endpoint.path })
    }
  })
  return routes
}

export const mergeRouteTables = (tables: ReadonlyArray<RouteTable>): RouteTable => ({
  allowedMethods: (url) => [...new Set(tables.flatMap((table) => table.allowedMethods(url)))]
})

const templates = new Map<string, string>()

/** A router's path (`/v1/episodes/:slug`) as a route template (`/v1/episodes/{slug}`). */
export const routeTemplate = (path: string): string => {
  let template = templates.get(path)
  if (template === undefined) {
    template = path.replace(/:([A-Za-z0-9_]+)/g, "{$1}")
    // Routes are the application's own, a few dozen: the memo stays small.
    if (templates.size < 1000) templates.set(path, template)
  }
  return template
}
