// The catalog's REST contract as an HttpApi: every route, parameter, success and error of
// catalog-service.md and catalog-extensions.md. The OpenAPI document at /openapi.json is derived
// from it, and so is the routing of the fast path and the batch (CatalogRouteTable.ts); handlers
// live in CatalogHandlers.ts.
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import {
  BadRequest,
  errorDoc,
  MethodNotAllowed,
  NotAcceptable,
  NotFound,
  PayloadTooLarge
} from "../../http/ApiError.js"
import { MaxBodyBytes } from "../../http/BodyPolicy.js"
import { characters, documented } from "../../http/OpenApiDocument.js"
import { AskGroup } from "../ask/AskApi.js"
import {
  maxBatchRequests,
  maxCursorLength,
  maxSearchTextLength,
  maxSnapshotPathLength,
  pageSizeBounds,
  sessionBounds
} from "../CatalogLimits.js"
import { Cursor, EpisodePage, Health, TranscriptHitPage } from "../domain/Collections.js"
import { EpisodeDetail, Slug } from "../domain/Episode.js"
import { SnapshotManifest } from "../domain/Manifest.js"
import { TranscriptDetail } from "../domain/Transcript.js"
import { BatchRequest, BatchResponse, maxBatchBodyBytes } from "./Batch.js"
import { documentCatalogApi } from "./CatalogOpenApi.js"
import { RateLimited } from "./RateLimited.js"
import { Sandbox } from "./Sandbox.js"

/** An integer query parameter: decoded from text, documented as an integer with its bounds. */
const integerParameter = (
  title: string,
  description: string,
  bounds: { readonly minimum: number; readonly maximum: number; readonly default?: number }
) => {
  const withDefault = bounds.default === undefined ? "" : `, ${bounds.default} when not given`
  const documentedDescription = `${description}: ${bounds.minimum} to ${bounds.maximum}${withDefault}.`
  return Schema.NumberFromString.pipe(
    Schema.int({ message: () => "must be an integer" }),
    Schema.between(bounds.minimum, bounds.maximum, {
      message: () => `must be an integer from ${bounds.minimum} to ${bounds.maximum}`
    }),
    Schema.annotations({
      description,
      jsonSchema: { type: "integer", title, description: documentedDescription, ...bounds }
    })
  )
}

export const Limit = integerParameter("Page size", "Results per page", pageSizeBounds)
export const Session = integerParameter("Session", "Only episodes of this session (season)", sessionBounds)

/** The words of a search (`q`), documented with their bound. */
const searchWords = (description: string, required: string) =>
  Schema.String.pipe(
    Schema.maxLength(maxSearchTextLength),
    Schema.annotations({ description }),
    documented("Search words", `${required}, ${characters(0, maxSearchTextLength)}.`)
  )

const PageCursor = Cursor.pipe(Schema.maxLength(maxCursorLength)).pipe(
  documented("Cursor", `The previous page's nextCursor, ${characters(0, maxCursorLength)}.`)
)

const strictParams = { parseOptions: { onExcessProperty: "error" } } as const

export const EpisodeListParams = Schema.Struct({
  q: Schema.optional(
    searchWords(
      "Words to search for; without it, newest first.",
      "Words to search for (without them, newest first)"
    )
  ),
  session: Schema.optional(Session),
  limit: Schema.optional(Limit),
  cursor: Schema.optional(PageCursor)
}).annotations(strictParams)

export const TranscriptSearchParams = Schema.Struct({
  q: searchWords(
    "Words to search for: at least one of two or more letters or digits.",
    "Words to search for, one of them of two or more letters or digits"
  ),
  session: Schema.optional(Session),
  limit: Schema.optional(Limit),
  cursor: Schema.optional(PageCursor)
}).annotations(strictParams)

const SlugPath = Schema.Struct({ slug: Slug.annotations({ description: "The episode's slug." }) })

/** `/snapshot/*`: a path of the snapshot folder (documented as `{path}`). */
export const SnapshotFilePath = Schema.Struct({
  "*": Schema.String.pipe(
    Schema.maxLength(maxSnapshotPathLength),
    Schema.annotations({ description: "A file path from the manifest." }),
    documented(
      "Snapshot file path",
      `A file path from the manifest, ${characters(0, maxSnapshotPathLength)}. Its slashes may be sent as they ` +
        "are or percent-encoded (%2F), as OpenAPI tools send a path parameter."
    )
  )
})

// The service does not start without a verified snapshot, so health has no 503 to answer.
/** Adds media types to the 200 response of an operation: what the endpoint also answers besides JSON. */
const alsoAnswers = (media: Record<string, { readonly description: string; readonly schema?: object }>) =>
  OpenApi.annotations({
    transform: (operation) => {
      const responses = (operation.responses ?? {}) as Record<string, { content?: Record<string, unknown> }>
      const ok = responses["200"] ?? {}
      const added = Object.fromEntries(
        Object.entries(media).map(([type, { description, schema }]) => [
          type,
          { schema: { ...schema, description } }
        ])
      )
      return {
        ...operation,
        responses: { ...responses, "200": { ...ok, content: { ...ok.content, ...added } } }
      }
    }
  })

export class HealthGroup extends HttpApiGroup.make("health")
  .annotate(OpenApi.Description, "Whether the service is up, and the snapshot it serves")
  .add(
    HttpApiEndpoint.get("get", "/health")
      .addSuccess(Health)
      .annotate(OpenApi.Summary, "Whether the service is up, and which snapshot it serves")
  ) {}

export class EpisodesGroup extends HttpApiGroup.make("episodes")
  .annotate(OpenApi.Description, "Episodes: newest first, searched by relevance, or one by its slug")
  .add(
    HttpApiEndpoint.get("list", "/v1/episodes")
      .setUrlParams(EpisodeListParams)
      .addSuccess(EpisodePage)
      .addError(errorDoc(BadRequest))
      .annotate(OpenApi.Summary, "Search or page through episodes")
  )
  .add(
    HttpApiEndpoint.get("get", "/v1/episodes/:slug")
      .setPath(SlugPath)
      .addSuccess(EpisodeDetail)
      .addError(errorDoc(BadRequest))
      .addError(errorDoc(NotFound))
      .annotate(OpenApi.Summary, "One episode")
  ) {}

export class TranscriptsGroup extends HttpApiGroup.make("transcripts")
  .annotate(OpenApi.Description, "Transcripts: searched paragraph by paragraph, or one complete")
  .add(
    HttpApiEndpoint.get("search", "/v1/transcripts/search")
      .setUrlParams(TranscriptSearchParams)
      .addSuccess(TranscriptHitPage)
      .addError(errorDoc(BadRequest))
      .annotate(OpenApi.Summary, "Search the text of the transcripts")
  )
  .add(
    HttpApiEndpoint.get("get", "/v1/transcripts/:slug")
      .setPath(SlugPath)
      .addSuccess(TranscriptDetail)
      .addError(errorDoc(BadRequest))
      .addError(errorDoc(NotFound))
      .annotate(OpenApi.Summary, "The complete transcript of one episode, when there is one")
  ) {}

export class SnapshotGroup extends HttpApiGroup.make("snapshot")
  .annotate(
    OpenApi.Description,
    "The static snapshot this service serves: its manifest and every file, byte for byte"
  )
  .add(
    HttpApiEndpoint.get("manifest", "/v1/snapshot")
      .addSuccess(SnapshotManifest)
      .annotate(OpenApi.Summary, "The manifest of the static snapshot this service serves")
  )
  .add(
    HttpApiEndpoint.get("file", "/snapshot/*")
      .setPath(SnapshotFilePath)
      .addSuccess(
        Schema.Unknown.annotations({
          title: "Snapshot file",
          description: "The file, byte for byte (immutable)."
        })
      )
      .addError(errorDoc(NotFound))
      .annotate(OpenApi.Summary, "A file of the static snapshot")
      .annotateContext(
        alsoAnswers({
          "application/gzip": { description: "A `.gz` copy, byte for byte." },
          "application/x-brotli": { description: "A `.br` copy, byte for byte." },
          "application/octet-stream": { description: "Any other file, byte for byte." }
        })
      )
  ) {}

export class BatchGroup extends HttpApiGroup.make("batch")
  .annotate(OpenApi.Description, "Several GET requests of this API in one call")
  .add(
    HttpApiEndpoint.post("run", "/v1/batch")
      .setPayload(BatchRequest)
      .addSuccess(BatchResponse)
      .addError(errorDoc(BadRequest))
      .addError(errorDoc(PayloadTooLarge))
      // Checked by the server's edge before the body is read, whether or not its length is declared.
      .annotate(MaxBodyBytes, maxBatchBodyBytes)
      .annotate(
        OpenApi.Summary,
        `Up to ${maxBatchRequests} GET requests of this API in one call, each answered on its own`
      )
  ) {}

export class SandboxGroup extends HttpApiGroup.make("sandbox")
  .annotate(OpenApi.Description, "How to try the API safely: examples, limits and conditional requests")
  .add(
    HttpApiEndpoint.get("get", "/sandbox")
      .addSuccess(Sandbox)
      .annotate(
        OpenApi.Summary,
        "How to make safe test calls: examples, limits, conditional requests (JSON or HTML)"
      )
      .annotateContext(
        alsoAnswers({
          "text/html": {
            description: "The same guide as a page, for `Accept: text/html` before application/json.",
            schema: { type: "string" }
          }
        })
      )
  ) {}

export class CatalogApi extends HttpApi.make("catalog")
  .add(HealthGroup)
  .add(EpisodesGroup)
  .add(TranscriptsGroup)
  .add(SnapshotGroup)
  .add(BatchGroup)
  .add(SandboxGroup)
  .add(
    AskGroup.annotate(
      OpenApi.Description,
      "Questions in plain language, answered from the catalog with citations (JSON or server-sent events)"
    )
  )
  .middleware(RateLimited)
  .addError(errorDoc(NotAcceptable))
  // Answered by the server's edge for any path (405 with Allow) and any body over its limit (413);
  // the document's transform keeps each where it applies.
  .addError(errorDoc(MethodNotAllowed))
  .addError(errorDoc(PayloadTooLarge))
  .annotateContext(documentCatalogApi) {}
