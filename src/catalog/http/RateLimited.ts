// The admission of the catalog's HttpApi: every endpoint spends one request of the caller's budget
// through the catalog's one `admit` (a batch spends one more per further request it carries, in its
// handler). As middleware of the API, its 429 is documented on every operation.
import * as HttpApiMiddleware from "@effect/platform/HttpApiMiddleware"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { errorDoc, TooManyRequests } from "../../http/ApiError.js"
import { CatalogAdmission } from "../CatalogAdmission.js"

export class RateLimited extends HttpApiMiddleware.Tag<RateLimited>()("RateLimited", {
  failure: errorDoc(TooManyRequests)
}) {}

export const RateLimitedLive = Layer.effect(
  RateLimited,
  Effect.map(CatalogAdmission, (admission) => admission.admitRequest(1))
)
