// The roles (extensions §3) in the console's words: a name, and what the role may do.
import type { Role } from "../Domain/Common.js"

export const roleNames: Record<Role, string> = { owner: "Owner", admin: "Admin", member: "Member" }

export const roleDescriptions: Record<Role, string> = {
  owner: "Everything, including managing the owners",
  admin: "Manages the settings, members, invitations, API tokens and connected apps",
  member: "Sees the organization, its members and its notebook"
}
