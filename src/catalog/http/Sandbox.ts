// The sandbox guidance (catalog-extensions §10): example calls for every route, the limits, and how
// to revalidate with conditional requests; as JSON, or as an HTML page for browsers.
import * as Schema from "effect/Schema"

export class SandboxRoute extends Schema.Class<SandboxRoute>("SandboxRoute")({
  method: Schema.String,
  path: Schema.String,
  description: Schema.String,
  example: Schema.String
}) {}

export class SandboxLimits extends Schema.Class<SandboxLimits>("SandboxLimits")({
  pageSize: Schema.Struct({ minimum: Schema.Int, maximum: Schema.Int, default: Schema.Int }),
  batchRequests: Schema.Int,
  batchBodyBytes: Schema.Int,
  rateLimitPerMinute: Schema.Int,
  maxTranscriptCharactersMcp: Schema.Int,
  searchResults: Schema.Int
}) {}

export class Sandbox extends Schema.Class<Sandbox>("Sandbox")({
  service: Schema.String,
  baseUrl: Schema.String,
  snapshot: Schema.Struct({ id: Schema.String, builtAt: Schema.String }),
  routes: Schema.Array(SandboxRoute),
  limits: SandboxLimits,
  conditionalRequests: Schema.Array(Schema.String),
  safety: Schema.Array(Schema.String)
}) {}
