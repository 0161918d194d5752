// The foundation API (`/api/v1`) as a protected resource (extensions §8, RFC 9728): declared once in
// the service's registry, so its tokens name it, its 401s point at its metadata, and the
// authorization server takes it as the default `resource`.
import * as Context from "effect/Context"
import { type ProtectedResource, ProtectedResources } from "../../http/ProtectedResources.js"
import { scopeDescriptions } from "../Domain/Common.js"

export class FoundationResource extends Context.Tag("FoundationResource")<
  FoundationResource,
  ProtectedResource
>() {
  static readonly layer = ProtectedResources.declare(FoundationResource, {
    path: "/api/v1",
    name: "Podcast platform foundation API",
    scopes: ["organizations:read", "organizations:write"],
    scopeDescriptions,
    documentation: "/api/v1/docs"
  })
}
