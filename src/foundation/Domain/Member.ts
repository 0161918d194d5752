// A membership as the base contract (§2) describes it: `id` is the `memberId` of the member paths.
import * as Schema from "effect/Schema"
import { Email, Role } from "./Common.js"
import { MemberId, UserId } from "./Ids.js"

export class Member extends Schema.Class<Member>("Member")({
  id: MemberId,
  userId: UserId,
  name: Schema.String,
  email: Email,
  role: Role
}) {}
