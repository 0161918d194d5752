// A NUL character (`\u0000` in JSON, `%00` in a path or query) in any string the foundation accepts
// is a 400 in the envelope naming the field, never a 500, and stores nothing (PostgreSQL refuses
// NUL in text). The fields are read from the API definition itself, so a field added later is
// tested without anyone remembering to: every string of every path, query and body of every
// operation, each sent once with a NUL in an otherwise valid request. PGlite and PostgreSQL.
import * as Net from "node:net"
import { expect, layer } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type * as Schema from "effect/Schema"
import type * as AST from "effect/SchemaAST"
import { FoundationApi } from "../../src/foundation/FoundationApi.js"
import { ServerAddress } from "../../src/http/NodeServer.js"
import { describeNeeding } from "../support/Needs.js"
import { request } from "../support/TestServer.js"
import { freshDataDir, postgresUnavailable, withClient } from "./support/Backends.js"
import {
  type Account,
  COOKIE,
  call,
  createOrganization,
  createToken,
  foundationServer,
  invite,
  isEnvelope,
  join,
  PUBLIC_ORIGIN,
  postgresFoundationServer,
  sessionFrom,
  signUpVerified,
  TestDatabaseUrl,
  uniqueEmail
} from "./support/FoundationClient.js"

/** How a client sends a string in a field: free text, or only one of some literals. */
type StringKind = "text" | "literal" | "encoded"

/** Whether (and how) a field's wire form is a string, read from its schema's AST. */
const stringKind = (ast: AST.AST): StringKind | undefined => {
  switch (ast._tag) {
    case "StringKeyword":
      return "text"
    case "Literal":
      return typeof ast.literal === "string" ? "literal" : undefined
    case "Refinement":
      return stringKind(ast.from)
    case "Union": {
      const kinds = ast.types.map(stringKind)
      return kinds.includes("text") ? "text" : kinds.includes("encoded") ? "encoded" : kinds.find(Boolean)
    }
    // A string on the wire that decodes into something else (NumberFromString): refused, but not
    // necessarily for its NUL.
    case "Transformation":
      return stringKind(ast.from) === undefined ? undefined : "encoded"
    default:
      return undefined
  }
}

interface StringField {
  /** The key in the path, query or body; `.0` for the first element of an array. */
  readonly path: ReadonlyArray<string>
  readonly kind: StringKind
}

/** Every string field of a struct schema, arrays of strings included (their first element). */
const stringFields = (schema: Option.Option<Schema.Schema.Any>): ReadonlyArray<StringField> => {
  if (Option.isNone(schema)) return []
  const literal = schema.value.ast
  if (literal._tag !== "TypeLiteral") throw new Error(`Not a struct: ${String(literal)}`)
  return literal.propertySignatures.flatMap((property): Array<StringField> => {
    const name = String(property.name)
    const own = stringKind(property.type)
    if (own !== undefined) return [{ path: [name], kind: own }]
    const members = property.type._tag === "Union" ? property.type.types : [property.type]
    for (const member of members) {
      if (member._tag === "TupleType" && member.rest[0] !== undefined) {
        const element = stringKind(member.rest[0].type)
        if (element !== undefined) return [{ path: [name, "0"], kind: element }]
      }
    }
    return []
  })
}

/** A valid request for an operation: whose session, path parameters, query and body. */
interface ValidRequest {
  readonly caller: Account | undefined
  readonly path: Record<string, string>
  readonly query: Record<string, string>
  readonly body: Record<string, unknown> | undefined
}

interface World {
  readonly owner: Account
  readonly organizationId: string
  readonly memberId: string
  readonly invitee: Account
  readonly invitationId: string
  readonly tokenId: string
  readonly spareSessionId: string
}

const makeWorld = Effect.gen(function* () {
  const owner = yield* signUpVerified("nul-owner")
  const organizationId = (yield* createOrganization(owner, "Nul Org")).id
  const member = yield* join(owner, organizationId, "member", "nul-member")
  const invitee = yield* signUpVerified("nul-invitee")
  const invitationId = (yield* invite(owner, organizationId, invitee.email, "admin")).id
  const tokenId = (yield* createToken(owner, organizationId)).id
  // A second session of the owner, the target of session revocation.
  const spare = sessionFrom(
    yield* call("/auth/sign-in", { body: { email: owner.email, password: owner.password } })
  )
  const sessions = yield* call("/security/sessions", { session: spare })
  const spareSessionId = (sessions.json as { items: Array<{ id: string; current: boolean }> }).items.find(
    (item) => item.current
  )?.id
  if (spareSessionId === undefined) throw new Error("no current session in the list")
  return {
    owner,
    organizationId,
    memberId: member.memberId,
    invitee,
    invitationId,
    tokenId,
    spareSessionId
  } satisfies World
})

/** A request each operation would answer 200 (or change something) if it carried no NUL. */
const validRequests = (world: World): Record<string, ValidRequest> => {
  const { owner, organizationId } = world
  const asOwner = (body?: Record<string, unknown>, path: Record<string, string> = {}) => ({
    caller: owner,
    path: { organizationId, ...path },
    query: {},
    body
  })
  const page = { cursor: "", limit: "10" }
  return {
    "auth.signUp": {
      caller: undefined,
      path: {},
      query: {},
      body: { email: uniqueEmail("nul-new"), password: "long enough password", name: "Nul New" }
    },
    "auth.signIn": {
      caller: undefined,
      path: {},
      query: {},
      body: { email: owner.email, password: owner.password }
    },
    "auth.signOut": asOwner(),
    "auth.verifyEmail": { caller: undefined, path: {}, query: {}, body: { token: "not-a-real-token" } },
    "security.sessions": asOwner(),
    "security.revokeSession": asOwner(undefined, { sessionId: world.spareSessionId }),
    "security.changePassword": asOwner({
      currentPassword: owner.password,
      newPassword: "a fresh long password"
    }),
    "profile.get": asOwner(),
    "profile.update": asOwner({ name: "Renamed", preferredName: "Ren", theme: "dark" }),
    "profile.changeEmail": asOwner({ email: uniqueEmail("nul-change") }),
    "context.credential": asOwner(),
    "context.get": asOwner(),
    "organizations.create": asOwner({ name: "Another Org", slug: `nul-${Date.now()}` }),
    "organizations.list": asOwner(),
    "organizations.get": asOwner(),
    "organizations.update": asOwner({
      version: 1,
      name: "Updated",
      companyName: "Company",
      website: "https://example.com",
      phone: "+1 555",
      address: "1 Street"
    }),
    "organizations.switch": asOwner({ organizationId }),
    "members.list": { ...asOwner(), query: page },
    "members.updateRole": asOwner({ role: "admin" }, { memberId: world.memberId }),
    "members.remove": asOwner(undefined, { memberId: world.memberId }),
    "invitations.list": { ...asOwner(), query: page },
    "invitations.create": asOwner({ email: uniqueEmail("nul-invited"), role: "member" }),
    "invitations.revoke": asOwner(undefined, { invitationId: world.invitationId }),
    "invitations.accept": {
      caller: world.invitee,
      path: { invitationId: world.invitationId },
      query: {},
      body: undefined
    },
    "invitations.reject": {
      caller: world.invitee,
      path: { invitationId: world.invitationId },
      query: {},
      body: undefined
    },
    "tokens.create": asOwner({ name: "ci", scopes: ["organizations:read"], expiresInDays: 30 }),
    "tokens.list": { ...asOwner(), query: page },
    "tokens.revoke": asOwner(undefined, { tokenId: world.tokenId })
  }
}

/** `value` with a NUL in it: after its first character, so length bounds still hold. */
const withNul = (value: unknown): string =>
  typeof value === "string" && value.length > 0 ? `${value.slice(0, 1)}\u0000${value.slice(1)}` : "\u0000"

const setAt = (target: Record<string, unknown>, path: ReadonlyArray<string>, value: string) => {
  const [head, ...rest] = path
  if (head === undefined) return
  if (rest.length === 0) {
    target[head] = value
    return
  }
  const inner = target[head]
  // Arrays are copied as arrays, so that `scopes.0` stays a JSON array.
  const copy: Array<unknown> | Record<string, unknown> = Array.isArray(inner)
    ? [...(inner as Array<unknown>)]
    : { ...(inner as Record<string, unknown>) }
  setAt(copy as Record<string, unknown>, rest, value)
  target[head] = copy
}

const getAt = (source: Record<string, unknown>, path: ReadonlyArray<string>): unknown =>
  path.reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], source)

/** Everything the people of the world can read, to show that a refused request changed nothing. */
const visibleState = (world: World) =>
  Effect.gen(function* () {
    const o = `/organizations/${world.organizationId}`
    const reads = [
      "/profile",
      "/context",
      "/security/sessions",
      o,
      `${o}/members?limit=100`,
      `${o}/invitations?limit=100`,
      `${o}/tokens?limit=100`
    ]
    const answers: Array<string> = []
    for (const path of reads) {
      const response = yield* call(path, { session: world.owner.session })
      expect(response.status, path).toBe(200)
      answers.push(response.text)
    }
    answers.push((yield* call("/profile", { session: world.invitee.session })).text)
    return answers
  })

interface Probe {
  readonly operation: string
  readonly method: string
  readonly url: string
  readonly caller: Account | undefined
  readonly body: string | undefined
  readonly field: string
  readonly kind: StringKind
}

/** One request per string field of every operation, that field carrying a NUL. */
const probes = (world: World): ReadonlyArray<Probe> => {
  const valid = validRequests(world)
  const all: Array<Probe> = []
  for (const group of Object.values(FoundationApi.groups)) {
    for (const endpoint of Object.values(group.endpoints)) {
      const operation = `${group.identifier}.${endpoint.name}`
      const fields = {
        path: stringFields(endpoint.pathSchema),
        query: stringFields(endpoint.urlParamsSchema),
        body: stringFields(endpoint.payloadSchema)
      }
      if (fields.path.length + fields.query.length + fields.body.length === 0) continue
      // An operation without a request above is still probed when it takes no body: its path and
      // query are decoded before anything else, so any value of its other parameters will do. One
      // with a body needs a valid request above, or its fields would go untested.
      const base =
        valid[operation] ??
        (fields.body.length === 0
          ? {
              caller: world.owner,
              path: Object.fromEntries(
                fields.path.map(({ path: [name = ""] }) => [
                  name,
                  name === "organizationId" ? world.organizationId : "unknown"
                ])
              ),
              query: {},
              body: undefined
            }
          : undefined)
      expect(base, `a valid request for ${operation}`).toBeDefined()
      if (base === undefined) continue
      for (const [place, list] of Object.entries(fields)) {
        for (const field of list) {
          const path = { ...base.path }
          const query = { ...base.query }
          const body = base.body === undefined ? undefined : { ...base.body }
          const target: Record<string, unknown> =
            place === "path" ? path : place === "query" ? query : (body ?? {})
          setAt(target, field.path, withNul(getAt(target, field.path)))
          const url =
            endpoint.path.replace(/:(\w+)/g, (_: string, name: string) =>
              encodeURIComponent(String(path[name]))
            ) +
            (Object.keys(query).length === 0
              ? ""
              : `?${new URLSearchParams(query as Record<string, string>)}`)
          all.push({
            operation,
            method: endpoint.method,
            url,
            caller: base.caller,
            body: body === undefined ? undefined : JSON.stringify(body),
            field: field.path.join("."),
            kind: field.kind
          })
        }
      }
    }
  }
  return all
}

/** The number of rows of every table (rate-limit counters aside); nothing to count on PGlite. */
class RowCounts extends Context.Tag("RowCounts")<RowCounts, Effect.Effect<Record<string, unknown>>>() {}

const countRows = (url: string) =>
  withClient(url, async (client) => {
    const tables = await client.query<{ name: string }>(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_name <> 'rate_limit_counters' ORDER BY table_name"
    )
    const counts: Record<string, unknown> = {}
    for (const { name } of tables.rows) {
      counts[name] = (await client.query(`SELECT count(*)::int AS n FROM ${name}`)).rows[0]?.n
    }
    return counts
  })

const settings = { CREDENTIAL_RATE_LIMIT: "1000000", AUTH_RATE_LIMIT: "1000000" }
const servers = [
  {
    name: "PGlite",
    missing: undefined,
    layer: Layer.merge(
      foundationServer(
        Effect.map(freshDataDir, (dir) => ({ DATA_DIR: dir })),
        settings
      ),
      Layer.succeed(RowCounts, Effect.succeed({}))
    )
  },
  {
    name: "PostgreSQL",
    missing: postgresUnavailable,
    layer: Layer.effect(RowCounts, Effect.map(TestDatabaseUrl, countRows)).pipe(
      Layer.provideMerge(postgresFoundationServer(settings))
    )
  }
]

for (const server of servers) {
  describeNeeding(server.missing)(`a NUL character in any string on ${server.name}`, () => {
    layer(server.layer, { timeout: 240_000, excludeTestServices: true })((it) => {
      it.effect(
        "every string field of every operation: 400 naming the field, never 500, nothing stored",
        () =>
          Effect.gen(function* () {
            const world = yield* makeWorld
            const all = probes(world)
            // Paths, queries and bodies all have string fields, and they were all found.
            expect(new Set(all.map((probe) => probe.operation)).size).toBeGreaterThanOrEqual(20)
            expect(all.map((probe) => `${probe.operation} ${probe.field}`)).toEqual(
              expect.arrayContaining([
                "organizations.get organizationId",
                "members.list cursor",
                "auth.signUp email",
                "organizations.update website",
                "tokens.create scopes.0"
              ])
            )
            const rows = yield* RowCounts
            const before = { visible: yield* visibleState(world), rows: yield* rows }
            const wrong: Array<string> = []
            for (const probe of all) {
              const headers: Record<string, string> = { origin: PUBLIC_ORIGIN }
              if (probe.body !== undefined) headers["content-type"] = "application/json"
              if (probe.caller !== undefined) headers.cookie = `${COOKIE}=${probe.caller.session}`
              const response = yield* request(probe.url, {
                method: probe.method,
                headers,
                ...(probe.body === undefined ? {} : { body: probe.body })
              })
              const json = response.json as { message?: unknown } | undefined
              const message = typeof json?.message === "string" ? json.message : ""
              const right =
                response.status === 400 &&
                isEnvelope(response.json, 400) &&
                message.includes(`${probe.field}: `) &&
                (probe.kind !== "text" || message.includes("must not contain the NUL character")) &&
                response.headers.get("set-cookie") === null
              if (!right) {
                wrong.push(
                  `${probe.operation} ${probe.field}: ${probe.method} ${probe.url} → ${response.status} ${response.text.slice(0, 200)}`
                )
              }
            }
            // Listed all at once, so that one run shows every field that is answered wrongly.
            expect(wrong).toEqual([])
            expect({ visible: yield* visibleState(world), rows: yield* rows }).toEqual(before)
          })
      )

      it.effect("a NUL in a header is refused by the HTTP parser before it reaches the service", () =>
        Effect.gen(function* () {
          const address = yield* ServerAddress
          const email = uniqueEmail("nul-agent")
          const body = JSON.stringify({ email, password: "long enough password", name: "Agent" })
          const answer = yield* Effect.promise(
            () =>
              new Promise<string>((resolve, reject) => {
                const socket = Net.connect(Number(new URL(address.url).port), "127.0.0.1")
                let text = ""
                socket.on("data", (chunk) => {
                  text += chunk.toString("latin1")
                })
                socket.on("end", () => resolve(text))
                socket.on("error", reject)
                socket.write(
                  `POST /api/v1/auth/sign-up HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: a\u0000b\r\n` +
                    `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
                )
              })
          )
          expect(answer).toMatch(/^HTTP\/1\.1 400 /)
          // No account was made: the same email signs up now.
          const signedUp = yield* call("/auth/sign-up", {
            body: { email, password: "long enough password", name: "Agent" }
          })
          expect(signedUp.status).toBe(200)
        })
      )
    })
  })
}
