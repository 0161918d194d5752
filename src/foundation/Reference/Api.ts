// `GET /api/v1/openapi.json` and the reference page `GET /api/v1/docs`: routes of the foundation API
// (so they get its routing, HEAD and error envelope) that its own document leaves out.
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"

export const ReferenceApi = HttpApiGroup.make("reference")
  .add(HttpApiEndpoint.get("openapi", "/openapi.json"))
  .add(HttpApiEndpoint.get("docs", "/docs"))
  .annotate(OpenApi.Exclude, true)
