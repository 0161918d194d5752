// Facts of the contracts that several tests check against: every operationId of the base contract
// and the extensions (the connections of extensions §8 listed apart, as the later addition).

/** Every operationId of the base contract and the extensions. */
export const contractOperationIds = [
  "auth.signUp",
  "auth.signIn",
  "auth.signOut",
  "auth.verifyEmail",
  "security.sessions",
  "security.revokeSession",
  "security.changePassword",
  "profile.get",
  "profile.update",
  "profile.changeEmail",
  "context.credential",
  "context.get",
  "organizations.create",
  "organizations.list",
  "organizations.get",
  "organizations.update",
  "organizations.switch",
  "members.list",
  "members.updateRole",
  "members.remove",
  "invitations.list",
  "invitations.create",
  "invitations.revoke",
  "invitations.accept",
  "invitations.reject",
  "tokens.create",
  "tokens.list",
  "tokens.revoke"
] as const
export type OperationId = (typeof contractOperationIds)[number]

/** The connections operations of extensions §8 (delegated access). */
export const connectionOperationIds = [
  "connections.list",
  "connections.revoke",
  "organizations.connections",
  "organizations.revokeConnection"
] as const

/** The notebook's operations of catalog-extensions §12 (the agent session's notes, seen by people). */
export const notesOperationIds = ["notes.list", "notes.delete"] as const
