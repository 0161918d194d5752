// An invitation (base contract §2, extensions §4): all five fields always present; `role` is a Role
// and `status` one of five values.
import * as Schema from "effect/Schema"
import { Email, Role, Timestamp } from "./Common.js"
import { InvitationId } from "./Ids.js"

export const InvitationStatus = Schema.Literal("pending", "accepted", "rejected", "revoked", "expired")
export type InvitationStatus = typeof InvitationStatus.Type

export class Invitation extends Schema.Class<Invitation>("Invitation")({
  id: InvitationId,
  email: Email,
  role: Role,
  status: InvitationStatus,
  expiresAt: Timestamp
}) {}
