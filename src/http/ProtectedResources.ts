// The service's OAuth protected resources (RFC 9728), declared once each: a feature registers the
// path it serves (the foundation `/api/v1`, the catalog's agent server `/mcp/agent`) with its name
// and scopes, and gets back what it needs to answer bearer requests (its identifier, the URL of its
// metadata document, its `WWW-Authenticate` challenges). The authorization server reads the same
// registry to validate `resource` indicators (RFC 8707) and to serve each metadata document, so no
// feature imports another to be protected.
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

/** Where RFC 9728 puts a resource's metadata: this prefix, then the resource's path. */
export const metadataPrefix = "/.well-known/oauth-protected-resource"

export interface ProtectedResourceDeclaration {
  /** The resource's path on this service, e.g. `/api/v1`; its identifier is the origin + path. */
  readonly path: `/${string}`
  /** A name for people (RFC 9728 `resource_name`), shown on the consent page. */
  readonly name: string
  /** The scopes the resource understands (`scopes_supported`), its read scope first (the default). */
  readonly scopes: ReadonlyArray<string>
  /**
   * What each scope lets an app do at this resource, in words for people (the consent page): its
   * own words, so a page never promises what a token for this resource could not do.
   */
  readonly scopeDescriptions: Readonly<Record<string, string>>
  /**
   * Whether its 401s name the scopes to ask for (`scope="…"`, RFC 6750 §3), as MCP's authorization
   * specification asks of an MCP server, so a client asks for exactly these.
   */
  readonly challengeScopes?: boolean
  /** A path of this service documenting the resource for developers (`resource_documentation`). */
  readonly documentation?: `/${string}`
  /**
   * Scopes that grants for this resource held before it had its present ones, each with the scope it
   * stands for now: such grants keep working until they end, read (and shown, and refreshed) as that.
   */
  readonly formerScopes?: Readonly<Record<string, string>>
}

/** What RFC 6750 §3.1 lets a challenge say about a refused request. */
export interface ChallengeProblem {
  readonly error: "invalid_request" | "invalid_token" | "insufficient_scope"
  /** Written into a quoted string: our own fixed sentences, never input. */
  readonly description?: string
  /** The scope the request needed (insufficient_scope). */
  readonly scope?: string
}

export interface ProtectedResource extends ProtectedResourceDeclaration {
  /** The identifier tokens are bound to and clients name in `resource`: the origin and the path. */
  readonly resource: string
  /** The path of its metadata document on this service. */
  readonly metadataPath: string
  readonly metadataUrl: string
  /** The `WWW-Authenticate` value of a 401 or 403 from this resource (RFC 6750 §3, RFC 9728 §5.1). */
  readonly challenge: (problem?: ChallengeProblem) => string
  /** What a grant's scopes mean here now: its former scopes read as today's (see currentScopes). */
  readonly currentScopes: <S extends string>(granted: ReadonlyArray<S>) => ReadonlyArray<S>
}

/**
 * `granted` in the words of `scopes` today: each former scope as the scope it stands for, anything the
 * resource does not know left out, each once, in one order.
 */
export const currentScopes = <S extends string>(
  scopes: ReadonlyArray<string>,
  formerScopes: Readonly<Record<string, string>>,
  granted: ReadonlyArray<S>
): ReadonlyArray<S> => {
  const held = new Set<S>()
  for (const scope of granted) {
    const now = (formerScopes[scope] ?? scope) as S
    if (scopes.includes(now)) held.add(now)
  }
  return [...held].sort()
}

const quoted = (value: string) => `"${value.replace(/["\\]/g, "")}"`

const describe = (origin: string, declaration: ProtectedResourceDeclaration): ProtectedResource => {
  const described = Object.keys(declaration.scopeDescriptions)
  if (
    described.length !== declaration.scopes.length ||
    !declaration.scopes.every((scope) => described.includes(scope))
  ) {
    throw new Error(
      `The protected resource ${declaration.path} must describe each of its scopes, and only those`
    )
  }
  const metadataPath = `${metadataPrefix}${declaration.path}`
  const metadataUrl = `${origin}${metadataPath}`
  return {
    ...declaration,
    resource: `${origin}${declaration.path}`,
    metadataPath,
    metadataUrl,
    currentScopes: (granted) => currentScopes(declaration.scopes, declaration.formerScopes ?? {}, granted),
    challenge: (problem) => {
      const parts = [`resource_metadata=${quoted(metadataUrl)}`]
      if (problem !== undefined) {
        parts.push(`error=${quoted(problem.error)}`)
        if (problem.description !== undefined) parts.push(`error_description=${quoted(problem.description)}`)
        if (problem.scope !== undefined) parts.push(`scope=${quoted(problem.scope)}`)
      }
      if (declaration.challengeScopes === true && problem?.scope === undefined) {
        parts.push(`scope=${quoted(declaration.scopes.join(" "))}`)
      }
      return `Bearer ${parts.join(", ")}`
    }
  }
}

export interface ProtectedResourceRegistry {
  /** The origin every resource lives on (the service's public origin). */
  readonly origin: string
  /** Declares a resource; a path declared twice is a programming error. */
  readonly register: (declaration: ProtectedResourceDeclaration) => ProtectedResource
  readonly all: () => ReadonlyArray<ProtectedResource>
  /** The resource a `resource` indicator names, compared exactly (no prefix matching). */
  readonly byResource: (resource: string) => ProtectedResource | undefined
  /** The resource whose metadata document lives at `path`. */
  readonly byMetadataPath: (path: string) => ProtectedResource | undefined
}

export class ProtectedResources extends Context.Tag("ProtectedResources")<
  ProtectedResources,
  ProtectedResourceRegistry
>() {
  /** An empty registry for resources on `origin`; features register while their layers are built. */
  static readonly layer = (origin: string) =>
    Layer.sync(ProtectedResources, (): ProtectedResourceRegistry => {
      const resources = new Map<string, ProtectedResource>()
      return {
        origin,
        register: (declaration) => {
          const described = describe(origin, declaration)
          if (resources.has(described.resource)) {
            throw new Error(`The protected resource ${declaration.path} is declared twice`)
          }
          resources.set(described.resource, described)
          return described
        },
        all: () => [...resources.values()],
        byResource: (resource) => resources.get(resource),
        byMetadataPath: (path) => [...resources.values()].find((resource) => resource.metadataPath === path)
      }
    })

  /** A layer providing `tag` with the resource it declares. */
  static readonly declare = <Self>(
    tag: Context.Tag<Self, ProtectedResource>,
    declaration: ProtectedResourceDeclaration
  ) =>
    Layer.effect(
      tag,
      Effect.map(ProtectedResources, (registry) => registry.register(declaration))
    )
}
