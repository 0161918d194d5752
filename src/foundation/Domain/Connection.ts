// Connections (extensions §8): the OAuth grants a person approved, as the person sees them and, with
// the person named, as an organization's owners and admins see them.
import * as Schema from "effect/Schema"
import { Email, GrantScope, Timestamp } from "./Common.js"
import { GrantId, OrganizationId, UserId } from "./Ids.js"

const connectionFields = {
  id: GrantId,
  clientId: Schema.String,
  /** What the client calls itself (unverified); null when it gave no name. */
  clientName: Schema.NullOr(Schema.String),
  organization: Schema.Struct({ id: OrganizationId, name: Schema.String }),
  scopes: Schema.Array(GrantScope),
  /** The protected resource its tokens are for (e.g. `<origin>/api/v1`). */
  resource: Schema.String,
  createdAt: Timestamp,
  lastUsedAt: Schema.NullOr(Timestamp)
}

export class Connection extends Schema.Class<Connection>("Connection")(connectionFields) {}

export class OrganizationConnection extends Schema.Class<OrganizationConnection>("OrganizationConnection")({
  ...connectionFields,
  user: Schema.Struct({ id: UserId, name: Schema.String, email: Email })
}) {}
