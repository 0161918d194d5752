// `/mcp/agent` (catalog-extensions §12): the catalog's four tools and the organization's notebook, for
// agents acting for a person in one organization. Stateless Streamable HTTP like `/mcp`, with the same
// Host/Origin, method, body-size and rate rules (the catalog's endpoint), then OAuth as MCP's
// authorization specification says: only an access token issued for this resource is accepted; any
// other request is 401 with `WWW-Authenticate: Bearer resource_metadata=…` (and `error="invalid_token"`
// when a token was sent). Organization API tokens belong to /api/v1 and are refused here too.
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import type { AuthInfo } from "@modelcontextprotocol/server"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { Catalog } from "../catalog/Catalog.js"
import { CatalogAdmission } from "../catalog/CatalogAdmission.js"
import { CatalogReads } from "../catalog/CatalogReads.js"
import { catalogTools } from "../catalog/mcp/CatalogTools.js"
import { catalogView } from "../catalog/mcp/CatalogView.js"
import { makeMcpHandler } from "../catalog/mcp/McpHandler.js"
import { type CallerOfRequest, mcpAccess, mcpEndpoint, mcpErrorLog } from "../catalog/mcp/McpRoutes.js"
import { makeToolServerFactory } from "../catalog/mcp/ToolServer.js"
import { Unauthenticated } from "../foundation/Domain/Errors.js"
import { Notes } from "../foundation/Notes/Notes.js"
import { Authenticator } from "../foundation/Security/AuthenticationLive.js"
import { parseBearer } from "../foundation/Security/BearerToken.js"
import type { OAuthPrincipal } from "../foundation/Security/Principal.js"
import { errorResponse } from "../http/ErrorResponse.js"
import { AgentResource, agentPath, agentScopeChallenge, agentScopes } from "./AgentResource.js"
import type { AgentCall } from "./AgentTool.js"
import { notebookTools } from "./NotebookTools.js"

const instructions =
  "Tools over a podcast's catalog and the notebook of the organization you act for. Find episodes with " +
  "search_episodes, read one with get_episode, find what was said with search_transcripts, read a transcript " +
  "with get_transcript. Keep what matters in the notebook with save_note (an episode slug, optionally a " +
  "transcript paragraph_index, and the text); read it with list_notes and get_note; remove a note with " +
  "delete_note. The notebook is shared with the organization's people."

const AgentMcpRoutes = HttpLayerRouter.use((router) =>
  Effect.gen(function* () {
    const catalog = yield* Catalog
    const reads = yield* CatalogReads
    const admission = yield* CatalogAdmission
    const authenticator = yield* Authenticator
    const notes = yield* Notes
    const resource = yield* AgentResource
    const runtime = yield* Effect.runtime<never>()
    const onError = yield* mcpErrorLog
    const access = yield* mcpAccess
    const build = makeToolServerFactory<AgentCall>({
      name: "podcast-agent",
      title: "Podcast agent session",
      version: "1.0.0",
      instructions,
      // The catalog's own tool definitions, beside the notebook's.
      tools: [...catalogTools(reads), ...notebookTools(runtime, notes, reads)],
      // The catalog tools' view, as /mcp offers it (any grant for this resource may read it: it holds no data).
      views: [catalogView(catalog.episodes)],
      // The lists are the same for every caller, but they answer an authenticated request: no shared cache.
      cacheHint: { ttlMs: 300_000, cacheScope: "private" },
      scopeChallenge: agentScopeChallenge
    })

    /**
     * The grant each verified request acts for, keyed by the AuthInfo handed to the SDK, which gives
     * the same object back to the factory of that request's server.
     */
    const calls = new WeakMap<AuthInfo, AgentCall>()
    const handler = makeMcpHandler(({ authInfo }, client) => {
      const call = authInfo === undefined ? undefined : calls.get(authInfo)
      // The endpoint authenticates every request before the SDK sees it (callerOf below).
      if (call === undefined) throw new Error("an /mcp/agent server was asked for without a verified grant")
      return build(call, client)
    }, onError)

    /**
     * What the SDK learns of a verified grant: its client and scopes, for this resource (the scopes
     * of grants approved before the notebook had its own read as theirs, see agentScopes).
     */
    const authInfoOf = (token: string, granted: OAuthPrincipal): AuthInfo => {
      const principal: OAuthPrincipal = { ...granted, scopes: agentScopes(granted.scopes) }
      const authInfo: AuthInfo = {
        token,
        clientId: principal.clientId,
        scopes: [...principal.scopes],
        resource: new URL(resource.resource),
        resourceMetadataUrl: resource.metadataUrl
      }
      calls.set(authInfo, { principal })
      return authInfo
    }

    const callerOf: CallerOfRequest = (request: HttpServerRequest.HttpServerRequest) => {
      const authorization = request.headers.authorization
      if (authorization === undefined) {
        return Effect.succeed(
          Either.left(
            errorResponse(
              new Unauthenticated({
                message: `${agentPath} needs an OAuth access token issued for ${resource.resource}; its metadata is at ${resource.metadataUrl}.`,
                wwwAuthenticate: resource.challenge()
              })
            )
          )
        )
      }
      return authenticator.bearerFor(authorization, resource).pipe(
        Effect.flatMap((principal) =>
          principal.kind === "oauth"
            ? Effect.succeed(
                Either.right(
                  authInfoOf(
                    Option.getOrElse(parseBearer(authorization), () => ""),
                    principal
                  )
                )
              )
            : Effect.fail(
                new Unauthenticated({
                  message: `Organization API tokens are for /api/v1; ${agentPath} needs an OAuth access token issued for it.`,
                  wwwAuthenticate: resource.challenge({
                    error: "invalid_token",
                    description: "Organization API tokens are not accepted here."
                  })
                })
              )
        ),
        Effect.catchAll((refused) => Effect.succeed(Either.left(errorResponse(refused))))
      )
    }

    yield* router.add("*", agentPath, mcpEndpoint(handler, callerOf, access, admission))
  })
)

/** The agent session's route, its protected resource declared; needs the catalog's and the foundation's services. */
export const AgentRoutes = AgentMcpRoutes.pipe(Layer.provide(AgentResource.layer))
