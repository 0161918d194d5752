// The handlers of the catalog API. The reads answer through the route table's operations (so what
// the fast path and the batch send is byte for byte what these send); the batch runs its requests
// through the same table; the sandbox and ask answer on their own.
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Effect from "effect/Effect"
import type * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import { PayloadTooLarge } from "../../http/ApiError.js"
import { respondPrepared } from "../../http/PreparedHttp.js"
import type { PreparedResponse } from "../../http/PreparedResponse.js"
import { AskHandlersLive } from "../ask/AskHttp.js"
import { Catalog } from "../Catalog.js"
import { CatalogAdmission } from "../CatalogAdmission.js"
import { maxBatchRequests } from "./Batch.js"
import { CatalogApi } from "./CatalogApi.js"
import { makeBatchRunner } from "./CatalogBatch.js"
import { CatalogRouteTable } from "./CatalogRouteTable.js"
import { RateLimitedLive } from "./RateLimited.js"
import { makeSandbox, sandboxResponses } from "./SandboxContent.js"

/** The handler of an endpoint whose operation answers a prepared response. */
const prepared =
  <Request, E>(operation: (request: Request) => Either.Either<PreparedResponse, E>) =>
  (request: Request) =>
    Effect.flatMap(operation(request), respondPrepared)

/** HTML for browsers that ask for it before JSON; JSON otherwise. */
const wantsHtml = (accept: string | undefined) => {
  if (accept === undefined) return false
  const html = accept.indexOf("text/html")
  const json = accept.indexOf("application/json")
  return html !== -1 && (json === -1 || html < json)
}

const HealthLive = HttpApiBuilder.group(CatalogApi, "health", (handlers) =>
  Effect.map(CatalogRouteTable, ({ operations: { health } }) => handlers.handle("get", prepared(health.get)))
)

const EpisodesLive = HttpApiBuilder.group(CatalogApi, "episodes", (handlers) =>
  Effect.map(CatalogRouteTable, ({ operations: { episodes } }) =>
    handlers.handle("list", prepared(episodes.list)).handle("get", prepared(episodes.get))
  )
)

const TranscriptsLive = HttpApiBuilder.group(CatalogApi, "transcripts", (handlers) =>
  Effect.map(CatalogRouteTable, ({ operations: { transcripts } }) =>
    handlers.handle("search", prepared(transcripts.search)).handle("get", prepared(transcripts.get))
  )
)

const SnapshotLive = HttpApiBuilder.group(CatalogApi, "snapshot", (handlers) =>
  Effect.map(CatalogRouteTable, ({ operations: { snapshot } }) =>
    handlers.handle("manifest", prepared(snapshot.manifest)).handle("file", prepared(snapshot.file))
  )
)

const BatchLive = HttpApiBuilder.group(CatalogApi, "batch", (handlers) =>
  Effect.gen(function* () {
    const run = makeBatchRunner(yield* CatalogRouteTable)
    const admission = yield* CatalogAdmission
    return handlers.handle("run", ({ payload }) =>
      Effect.gen(function* () {
        if (payload.requests.length > maxBatchRequests) {
          return yield* new PayloadTooLarge({
            message: `A batch holds at most ${maxBatchRequests} requests; this one has ${payload.requests.length}.`,
            data: { maxRequests: maxBatchRequests }
          })
        }
        // The API's admission took one request; each further request of the batch costs one more.
        yield* admission.admitRequest(payload.requests.length - 1)
        return run(payload)
      })
    )
  })
)

const SandboxLive = HttpApiBuilder.group(CatalogApi, "sandbox", (handlers) =>
  Effect.gen(function* () {
    const catalog = yield* Catalog
    const admission = yield* CatalogAdmission
    const responses = sandboxResponses(makeSandbox(catalog, admission.perMinute))
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
  BatchLive,
  SandboxLive,
  AskHandlersLive,
  RateLimitedLive
)
