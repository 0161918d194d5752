// The permission table (extensions §3, base contract §5) as a matrix: every operation of the
// foundation, sent by every kind of caller (owner, admin, member, non-member, no credential, a
// token with organizations:read, one with organizations:write, a token of another organization,
// and a revoked token), must answer the expected status, and every refusal is in the envelope.
// On PGlite and PostgreSQL.
import { describe, expect, it, layer } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { ServerAddress } from "../../src/http/NodeServer.js"
import { describeNeeding } from "../support/Needs.js"
import type { TestResponse } from "../support/TestServer.js"
import { backends } from "./support/Backends.js"
import { contractOperationIds } from "./support/Contract.js"
import {
  type Account,
  type CallOptions,
  call,
  createOrganization,
  createToken,
  foundationServer,
  invite,
  isEnvelope,
  join,
  sessionFrom,
  signUpVerified,
  uniqueEmail
} from "./support/FoundationClient.js"

const callers = [
  "owner",
  "admin",
  "member",
  "nonMember",
  "none",
  "readToken",
  "writeToken",
  "otherToken",
  "revokedToken"
] as const
type Caller = (typeof callers)[number]

interface World {
  readonly organizationId: string
  readonly owner: Account
  readonly accounts: Record<"owner" | "admin" | "member" | "nonMember", Account>
  readonly bearers: Record<"readToken" | "writeToken" | "otherToken" | "revokedToken", string>
  /** Another verified account that hosts organizations for invitations to the callers. */
  readonly host: Account
}

class WorldTag extends Context.Tag("PermissionWorld")<WorldTag, World>() {}

const buildWorld = Effect.gen(function* () {
  const owner = yield* signUpVerified("matrix-owner")
  const organization = yield* createOrganization(owner, "Matrix")
  const admin = (yield* join(owner, organization.id, "admin", "matrix-admin")).account
  const member = (yield* join(owner, organization.id, "member", "matrix-member")).account
  const nonMember = yield* signUpVerified("matrix-outsider")
  const outsiderOrganization = yield* createOrganization(nonMember, "Outside")
  // The outsider's active organization stays its own.
  const readToken = (yield* createToken(owner, organization.id, ["organizations:read"])).token
  const writeToken = (yield* createToken(owner, organization.id, ["organizations:write"])).token
  const otherToken = (yield* createToken(nonMember, outsiderOrganization.id, [
    "organizations:read",
    "organizations:write"
  ])).token
  const revoked = yield* createToken(owner, organization.id, ["organizations:read", "organizations:write"])
  const revocation = yield* call(`/organizations/${organization.id}/tokens/${revoked.id}`, {
    method: "DELETE",
    session: owner.session
  })
  expect(revocation.status).toBe(200)
  return {
    organizationId: organization.id,
    owner,
    accounts: { owner, admin, member, nonMember },
    bearers: { readToken, writeToken, otherToken, revokedToken: revoked.token },
    host: yield* signUpVerified("matrix-host")
  } satisfies World
})

/** How `caller` authenticates: its session, a bearer token, or nothing. */
const credentials = (world: World, caller: Caller): Pick<CallOptions, "session" | "bearer"> => {
  switch (caller) {
    case "none":
      return {}
    case "owner":
    case "admin":
    case "member":
    case "nonMember":
      return { session: world.accounts[caller].session }
    default:
      return { bearer: world.bearers[caller] }
  }
}

const sessionCallers = ["owner", "admin", "member", "nonMember"] as const
const isSessionCaller = (caller: Caller): caller is (typeof sessionCallers)[number] =>
  (sessionCallers as ReadonlyArray<Caller>).includes(caller)

/** A second session of the caller's account (for operations that end the session they use). */
const spareSession = (world: World, caller: Caller) =>
  Effect.gen(function* () {
    if (!isSessionCaller(caller)) return credentials(world, caller)
    const account = world.accounts[caller]
    const response = yield* call("/auth/sign-in", {
      body: { email: account.email, password: account.password }
    })
    expect(response.status).toBe(200)
    return { session: sessionFrom(response) }
  })

interface Operation {
  readonly operationId: string
  readonly expected: Record<Caller, number>
  readonly send: (world: World, caller: Caller) => Effect.Effect<TestResponse, never, ServerAddress>
}

/** Expected statuses: `ok` for the given callers, the rule's refusals for the others. */
const table = (
  ok: ReadonlyArray<Caller>,
  refusals: Partial<Record<Caller, number>> = {}
): Record<Caller, number> => {
  const defaults: Record<Caller, number> = {
    owner: 403,
    admin: 403,
    member: 403,
    nonMember: 404,
    none: 401,
    readToken: 403,
    writeToken: 403,
    otherToken: 403,
    revokedToken: 401
  }
  for (const caller of ok) defaults[caller] = 200
  return { ...defaults, ...refusals }
}

const sessions = ["owner", "admin", "member", "nonMember"] as const
const managers = ["owner", "admin"] as const
const members = ["owner", "admin", "member"] as const
const everyone: ReadonlyArray<Caller> = callers.filter(
  (caller) => caller !== "none" && caller !== "revokedToken"
)
/** For operations that take no credential: every caller gets the same answer. */
const anyCaller = (status: number) =>
  Object.fromEntries(callers.map((caller) => [caller, status])) as Record<Caller, number>

const org = (world: World) => `/organizations/${world.organizationId}`

const operations: ReadonlyArray<Operation> = [
  {
    operationId: "auth.signUp",
    expected: anyCaller(200),
    send: (world, caller) =>
      call("/auth/sign-up", {
        ...credentials(world, caller),
        body: { email: uniqueEmail("matrix-signup"), password: "long enough password", name: "New" }
      })
  },
  {
    operationId: "auth.signIn",
    expected: anyCaller(200),
    send: (world, caller) =>
      call("/auth/sign-in", {
        ...credentials(world, caller),
        body: { email: world.host.email, password: world.host.password }
      })
  },
  {
    operationId: "auth.verifyEmail",
    // An unknown token: the same 400 whoever asks (the operation takes no credential).
    expected: anyCaller(400),
    send: (world, caller) =>
      call("/auth/verify-email", { ...credentials(world, caller), body: { token: "unknown" } })
  },
  {
    operationId: "auth.signOut",
    expected: table(sessions),
    send: (world, caller) =>
      Effect.flatMap(spareSession(world, caller), (spare) =>
        call("/auth/sign-out", { ...spare, method: "POST" })
      )
  },
  {
    operationId: "security.sessions",
    expected: table(sessions),
    send: (world, caller) => call("/security/sessions", credentials(world, caller))
  },
  {
    operationId: "security.revokeSession",
    expected: table(sessions),
    send: (world, caller) =>
      Effect.gen(function* () {
        const spare = yield* spareSession(world, caller)
        // The id of the spare session, as its own list shows it (any id will do for the others).
        const listed = spare.session === undefined ? undefined : yield* call("/security/sessions", spare)
        const current = (
          listed?.json as { items: Array<{ id: string; current: boolean }> } | undefined
        )?.items.find((item) => item.current)
        return yield* call(`/security/sessions/${current?.id ?? "ses_unknown"}`, {
          ...credentials(world, caller),
          method: "DELETE"
        })
      })
  },
  {
    operationId: "security.changePassword",
    expected: table(sessions),
    send: (world, caller) => {
      const password = isSessionCaller(caller) ? world.accounts[caller].password : "whatever password"
      // The same password again: allowed, and the accounts keep working for the next operations.
      return call("/security/password", {
        ...credentials(world, caller),
        body: { currentPassword: password, newPassword: password }
      })
    }
  },
  {
    operationId: "profile.get",
    expected: table(sessions),
    send: (world, caller) => call("/profile", credentials(world, caller))
  },
  {
    operationId: "profile.update",
    expected: table(sessions),
    send: (world, caller) =>
      call("/profile", {
        ...credentials(world, caller),
        method: "PATCH",
        body: { name: `Matrix ${caller}`, preferredName: caller, theme: "dark" }
      })
  },
  {
    operationId: "profile.changeEmail",
    expected: table(sessions),
    send: (world, caller) =>
      call("/profile/email", {
        ...credentials(world, caller),
        body: { email: uniqueEmail("matrix-new-address") }
      })
  },
  {
    operationId: "context.credential",
    expected: table(everyone),
    send: (world, caller) => call("/credential-context", credentials(world, caller))
  },
  {
    operationId: "context.get",
    expected: table(sessions),
    send: (world, caller) => call("/context", credentials(world, caller))
  },
  {
    operationId: "organizations.create",
    expected: table(sessions),
    send: (world, caller) =>
      call("/organizations", { ...credentials(world, caller), body: { name: "Created" } })
  },
  {
    operationId: "organizations.list",
    expected: table(sessions),
    send: (world, caller) => call("/organizations", credentials(world, caller))
  },
  {
    operationId: "organizations.get",
    expected: table([...members, "readToken"]),
    send: (world, caller) => call(org(world), credentials(world, caller))
  },
  {
    operationId: "organizations.update",
    expected: table([...managers, "writeToken"]),
    send: (world, caller) =>
      Effect.gen(function* () {
        const current = yield* call(org(world), { session: world.owner.session })
        const version = (current.json as { version: number }).version
        return yield* call(org(world), {
          ...credentials(world, caller),
          method: "PATCH",
          body: { version, name: `Matrix by ${caller}` }
        })
      })
  },
  {
    operationId: "organizations.switch",
    expected: table(members),
    send: (world, caller) =>
      call("/context/organization", {
        ...credentials(world, caller),
        body: { organizationId: world.organizationId }
      })
  },
  {
    operationId: "members.list",
    expected: table(members),
    send: (world, caller) => call(`${org(world)}/members`, credentials(world, caller))
  },
  {
    operationId: "members.updateRole",
    expected: table(managers),
    send: (world, caller) =>
      Effect.gen(function* () {
        const target = yield* join(world.owner, world.organizationId, "member", "matrix-target")
        return yield* call(`${org(world)}/members/${target.memberId}`, {
          ...credentials(world, caller),
          method: "PATCH",
          body: { role: "admin" }
        })
      })
  },
  {
    operationId: "members.remove",
    expected: table(managers),
    send: (world, caller) =>
      Effect.gen(function* () {
        const target = yield* join(world.owner, world.organizationId, "member", "matrix-target")
        return yield* call(`${org(world)}/members/${target.memberId}`, {
          ...credentials(world, caller),
          method: "DELETE"
        })
      })
  },
  {
    operationId: "invitations.list",
    expected: table(members),
    send: (world, caller) => call(`${org(world)}/invitations`, credentials(world, caller))
  },
  {
    operationId: "invitations.create",
    expected: table(managers),
    send: (world, caller) =>
      call(`${org(world)}/invitations`, {
        ...credentials(world, caller),
        body: { email: uniqueEmail("matrix-invitee"), role: "member" }
      })
  },
  {
    operationId: "invitations.revoke",
    expected: table(managers),
    send: (world, caller) =>
      Effect.gen(function* () {
        const invitation = yield* invite(world.owner, world.organizationId, uniqueEmail("matrix-revoked"))
        return yield* call(`${org(world)}/invitations/${invitation.id}`, {
          ...credentials(world, caller),
          method: "DELETE"
        })
      })
  },
  ...(["accept", "reject"] as const).map(
    (verb): Operation => ({
      operationId: `invitations.${verb}`,
      // Addressed to the caller (any session caller is its invitee); tokens never answer invitations.
      expected: table(sessions),
      send: (world, caller) =>
        Effect.gen(function* () {
          const hosting = yield* createOrganization(world.host, `Hosting ${verb}`)
          const email = isSessionCaller(caller) ? world.accounts[caller].email : uniqueEmail("matrix-nobody")
          const invitation = yield* invite(world.host, hosting.id, email)
          return yield* call(`/invitations/${invitation.id}/${verb}`, {
            ...credentials(world, caller),
            method: "POST"
          })
        })
    })
  ),
  {
    operationId: "tokens.create",
    expected: table(managers),
    send: (world, caller) =>
      call(`${org(world)}/tokens`, {
        ...credentials(world, caller),
        body: { name: "matrix", scopes: ["organizations:read"], expiresInDays: 1 }
      })
  },
  {
    operationId: "tokens.list",
    expected: table(managers),
    send: (world, caller) => call(`${org(world)}/tokens`, credentials(world, caller))
  },
  {
    operationId: "tokens.revoke",
    expected: table(managers),
    send: (world, caller) =>
      Effect.gen(function* () {
        const token = yield* createToken(world.owner, world.organizationId)
        return yield* call(`${org(world)}/tokens/${token.id}`, {
          ...credentials(world, caller),
          method: "DELETE"
        })
      })
  }
]

describe("the permission matrix", () => {
  it("covers every operation of the contract", () => {
    expect(operations.map((operation) => operation.operationId).sort()).toEqual(
      [...contractOperationIds].sort()
    )
  })
})

for (const backend of backends) {
  describeNeeding(backend.missing)(`the permission matrix on ${backend.name}`, () => {
    const server = foundationServer(backend.database, {
      CREDENTIAL_RATE_LIMIT: "1000000",
      AUTH_RATE_LIMIT: "100000"
    })
    layer(Layer.provideMerge(Layer.effect(WorldTag, buildWorld), server), {
      timeout: 180_000,
      excludeTestServices: true
    })((it) => {
      for (const operation of operations) {
        it.effect(`${operation.operationId} answers each kind of caller as the table says`, () =>
          Effect.gen(function* () {
            const world = yield* WorldTag
            const actual: Partial<Record<Caller, number>> = {}
            for (const caller of callers) {
              const response = yield* operation.send(world, caller)
              actual[caller] = response.status
              if (response.status !== 200) {
                expect(isEnvelope(response.json, response.status), `${caller}: ${response.text}`).toBe(true)
              } else {
                expect(isEnvelope(response.json, 200), caller).toBe(false)
              }
            }
            expect(actual).toEqual(operation.expected)
          })
        )
      }
    })
  })
}
