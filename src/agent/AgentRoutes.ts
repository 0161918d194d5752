// `/mcp/agent` (catalog-extensions §12): the catalog's four tools and the organization's notebook, for
// agents acting for a person in one organization. Stateless Streamable HTTP like `/mcp`, with the same
// Host/Origin, method, body-size and rate rules (the catalog's endpoint), then OAuth as MCP's
// authorization specification says: only an access token issued for this resource is accepted; any
// other request is 401 with `WWW-Authenticate: Bearer resource_metadata=…` (and `error="invalid_token"`
// when a token was sent). Organization API tokens belong to /api/v1 and are refused here too.
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import { CatalogAdmission } from "../catalog/CatalogAdmission.js"
import { CatalogConfig } from "../catalog/CatalogConfig.js"
import { CatalogReads } from "../catalog/CatalogReads.js"
import { catalogTools } from "../catalog/mcp/CatalogTools.js"
import { makeMcpAccess } from "../catalog/mcp/McpAccess.js"
import { mcpEndpoint, type ServerForRequest } from "../catalog/mcp/McpRoutes.js"
import { makeToolServerFactory } from "../catalog/mcp/ToolServer.js"
import { Unauthenticated } from "../foundation/Domain/Errors.js"
import { Notes } from "../foundation/Notes/Notes.js"
import { Authenticator } from "../foundation/Security/AuthenticationLive.js"
import { errorResponse } from "../http/ErrorResponse.js"
import { AgentResource, agentPath } from "./AgentResource.js"
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
    const reads = yield* CatalogReads
    const config = yield* CatalogConfig
    const admission = yield* CatalogAdmission
    const authenticator = yield* Authenticator
    const notes = yield* Notes
    const resource = yield* AgentResource
    const runtime = yield* Effect.runtime<never>()
    const access = makeMcpAccess({
      listenHost: config.listenHost,
      publicUrl: config.publicOrigin,
      // The service's public origin is where agents are told to connect (the resource identifier).
      allowedHosts: [...config.mcpAllowedHosts, new URL(resource.resource).host],
      allowedOrigins: config.mcpAllowedOrigins
    })
    const build = makeToolServerFactory<AgentCall>({
      name: "podcast-agent",
      title: "Podcast agent session",
      version: "1.0.0",
      instructions,
      // The catalog's own tool definitions, beside the notebook's.
      tools: [...catalogTools(reads), ...notebookTools(runtime, notes, reads)]
    })

    const serverFor: ServerForRequest = (request: HttpServerRequest.HttpServerRequest) => {
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
            ? Effect.succeed(Either.right(() => build({ principal })))
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

    yield* router.add("*", agentPath, mcpEndpoint(serverFor, access, admission))
  })
)

/** The agent session's route, its protected resource declared; needs the catalog's and the foundation's services. */
export const AgentRoutes = AgentMcpRoutes.pipe(Layer.provide(AgentResource.layer))
