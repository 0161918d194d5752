// A membership as the base contract (§2) describes it: `id` is the `memberId` of the member paths.
import * as Schema from "effect/Schema"
import { Email, Id, Role } from "./Common.js"

export class Member extends Schema.Class<Member>("Member")({
  id: Id,
  userId: Id,
  name: Schema.String,
  email: Email,
  role: Role
}) {}
