// The batch endpoint's contract (catalog-extensions §9): up to 20 GET paths of this API under /v1,
// answered in order, each on its own.
import * as Schema from "effect/Schema"
import { documented } from "../../http/OpenApiDocument.js"
import { batchItemBounds, maxBatchRequests } from "../CatalogLimits.js"

export { maxBatchBodyBytes, maxBatchRequests } from "../CatalogLimits.js"

export class BatchItem extends Schema.Class<BatchItem>("BatchItem")({
  id: Schema.String.pipe(
    Schema.minLength(1),
    Schema.maxLength(batchItemBounds.maxIdLength),
    Schema.annotations({ description: "Your name for this request, echoed in its response." }),
    documented(
      "Request id",
      `Your name for this request, echoed in its response: 1 to ${batchItemBounds.maxIdLength} characters.`
    )
  ),
  path: Schema.String.pipe(
    Schema.minLength(1),
    Schema.maxLength(batchItemBounds.maxPathLength),
    Schema.annotations({
      description:
        "A GET path of this API under /v1 with its query string, e.g. /v1/episodes?q=tide&limit=3.",
      examples: ["/v1/episodes/12", "/v1/transcripts/search?q=lighthouse"]
    }),
    documented(
      "Path",
      "A GET path of this API under /v1 with its query string, e.g. /v1/episodes?q=tide&limit=3: " +
        `1 to ${batchItemBounds.maxPathLength} characters.`
    )
  )
}) {}

export class BatchRequest extends Schema.Class<BatchRequest>("BatchRequest")(
  Schema.Struct({
    requests: Schema.Array(BatchItem).pipe(
      Schema.minItems(1, { message: () => "requests must hold at least one request" }),
      Schema.annotations({ description: `1 to ${maxBatchRequests} requests; more is 413.` }),
      documented("Requests", `1 to ${maxBatchRequests} requests; more is 413.`)
    )
  }).annotations({ parseOptions: { onExcessProperty: "error" } })
) {}

export class BatchResult extends Schema.Class<BatchResult>("BatchResult")({
  id: Schema.String,
  status: Schema.Int,
  etag: Schema.optional(Schema.String),
  /** The JSON body the path answers on its own (an error envelope when it fails). */
  body: Schema.Unknown
}) {}

export class BatchResponse extends Schema.Class<BatchResponse>("BatchResponse")({
  responses: Schema.Array(BatchResult)
}) {}
