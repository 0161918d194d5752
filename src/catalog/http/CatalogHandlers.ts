// The handlers of the catalog API: each answers from the shared operations' prepared responses,
// so what the fast path and the batch endpoint send is byte for byte what these send.
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { PayloadTooLarge } from "../../http/ApiError.js"
import { respondPrepared } from "../../http/PreparedHttp.js"
import { AskHandlersLive } from "../ask/AskHttp.js"
import { Catalog } from "../Catalog.js"
import { CatalogRateLimit } from "../CatalogRateLimit.js"
import { maxBatchRequests } from "./Batch.js"
import { BatchBodyLimitLive } from "./BatchBodyLimit.js"
import { CatalogApi } from "./CatalogApi.js"
import { CatalogOperations } from "./CatalogOperations.js"
import { RateLimitedLive, spendRequests } from "./RateLimited.js"
import { makeSandbox, sandboxResponses } from "./SandboxContent.js"

/** HTML for browsers that ask for it before JSON; JSON otherwise. */
const wantsHtml = (accept: string | undefined) => {
  if (accept === undefined) return false
  const html = accept.indexOf("text/html")
  const json = accept.indexOf("application/json")
  return html !== -1 && (json === -1 || html < json)
}

const HealthLive = HttpApiBuilder.group(CatalogApi, "health", (handlers) =>
  Effect.map(CatalogOperations, (operations) =>
    handlers.handle("get", () => respondPrepared(operations.health))
  )
)

const EpisodesLive = HttpApiBuilder.group(CatalogApi, "episodes", (handlers) =>
  Effect.map(CatalogOperations, (operations) =>
    handlers
      .handle("list", ({ urlParams }) => Effect.flatMap(operations.listEpisodes(urlParams), respondPrepared))
      .handle("get", ({ path }) => Effect.flatMap(operations.episode(path.slug), respondPrepared))
  )
)

const TranscriptsLive = HttpApiBuilder.group(CatalogApi, "transcripts", (handlers) =>
  Effect.map(CatalogOperations, (operations) =>
    handlers
      .handle("search", ({ urlParams }) =>
        Effect.flatMap(operations.searchTranscripts(urlParams), respondPrepared)
      )
      .handle("get", ({ path }) => Effect.flatMap(operations.transcript(path.slug), respondPrepared))
  )
)

const SnapshotLive = HttpApiBuilder.group(CatalogApi, "snapshot", (handlers) =>
  Effect.map(CatalogOperations, (operations) =>
    handlers
      .handle("manifest", () => respondPrepared(operations.manifest))
      .handle("file", ({ path }) => Effect.flatMap(operations.file(path["*"]), respondPrepared))
  )
)

const BatchLive = HttpApiBuilder.group(CatalogApi, "batch", (handlers) =>
  Effect.gen(function* () {
    const operations = yield* CatalogOperations
    const limit = yield* CatalogRateLimit
    return handlers.handle("run", ({ payload }) =>
      Effect.gen(function* () {
        if (payload.requests.length > maxBatchRequests) {
          return yield* new PayloadTooLarge({
            message: `A batch holds at most ${maxBatchRequests} requests; this one has ${payload.requests.length}.`,
            data: { maxRequests: maxBatchRequests }
          })
        }
        // The middleware spent one request; each further request of the batch costs one more.
        yield* spendRequests(payload.requests.length - 1).pipe(Effect.provideService(CatalogRateLimit, limit))
        return operations.batch(payload)
      })
    )
  })
)

const SandboxLive = HttpApiBuilder.group(CatalogApi, "sandbox", (handlers) =>
  Effect.gen(function* () {
    const catalog = yield* Catalog
    const limit = yield* CatalogRateLimit
    const responses = sandboxResponses(makeSandbox(catalog, limit.perMinute))
    return handlers.handle("get", () =>
      Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
        respondPrepared(wantsHtml(request.headers.accept) ? responses.html : responses.json)
      )
    )
  })
)

export const CatalogHandlersLive = Layer.mergeAll(
  HealthLive,
  EpisodesLive,
  TranscriptsLive,
  SnapshotLive,
  // The batch's body limit is middleware of that one endpoint, so its group needs it.
  BatchLive.pipe(Layer.provide(BatchBodyLimitLive)),
  SandboxLive,
  AskHandlersLive,
  RateLimitedLive
)
