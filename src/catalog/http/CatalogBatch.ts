// Runs a batch (catalog-extensions §9): each request is routed through the catalog's route table and
// answered on its own, as the GET of its path would be, with the status, ETag and body it would get.
import * as Either from "effect/Either"
import { type ApiError, BadRequest, NotFound, toEnvelope } from "../../http/ApiError.js"
import type { PreparedResponse } from "../../http/PreparedResponse.js"
import { type BatchRequest, BatchResponse, BatchResult } from "./Batch.js"
import type { CatalogRouteTableService } from "./CatalogRouteTable.js"

const isBatchPath = (path: string) =>
  path === "/v1/batch" || path.startsWith("/v1/batch?") || path.startsWith("/v1/batch/")

export const makeBatchRunner = (table: CatalogRouteTableService) => {
  const answerOne = (path: string): Either.Either<PreparedResponse, ApiError> => {
    if (!path.startsWith("/v1/") || isBatchPath(path)) {
      return Either.left(
        new BadRequest({
          message: "path must be a GET path of this API under /v1 (batch excluded)",
          data: { path }
        })
      )
    }
    const found = table.find(path)
    if (found === undefined)
      return Either.left(new NotFound({ message: `No route for GET ${path.split("?")[0]}.`, data: { path } }))
    return found.handler(found.params, found.searchParams)
  }

  /** Answers each request of a batch on its own, in order. */
  return (request: BatchRequest): BatchResponse =>
    new BatchResponse({
      responses: request.requests.map((item) =>
        Either.match(answerOne(item.path), {
          onLeft: (error) =>
            new BatchResult({ id: item.id, status: toEnvelope(error).status, body: toEnvelope(error) }),
          onRight: (prepared) =>
            new BatchResult({
              id: item.id,
              status: 200,
              etag: prepared.variants.identity.etag,
              body: JSON.parse(Buffer.from(prepared.variants.identity.body).toString("utf8"))
            })
        })
      )
    })
}
