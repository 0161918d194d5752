// List cursors are signed and bound to their list (issue 14, base contract §4: a cursor that is not
// the list's own `nextCursor` is 400): a forged or altered cursor, or one from another
// organization's list or another list of the same organization, is refused. Instances on one
// database share the signing key, so a client may page across them. PGlite and PostgreSQL.
import { expect, layer } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { ServerAddress } from "../../src/http/NodeServer.js"
import { describeNeeding } from "../support/Needs.js"
import { backends, postgresUnavailable } from "./support/Backends.js"
import {
  type Account,
  call,
  createOrganization,
  createToken,
  foundationServer,
  invite,
  isEnvelope,
  join,
  postgresFoundationServer,
  signUp,
  TestDatabaseUrl,
  uniqueEmail
} from "./support/FoundationClient.js"

interface Page {
  readonly items: ReadonlyArray<{ readonly id: string }>
  readonly nextCursor: string | null
}

const page = (viewer: Account, path: string) =>
  Effect.map(call(path, { session: viewer.session }), (response) => ({
    status: response.status,
    json: response.json,
    text: response.text,
    page: response.json as Page
  }))

const expectInvalidCursor = (response: { status: number; json: unknown; text: string }, label: string) => {
  expect(response.status, `${label}: ${response.text}`).toBe(400)
  expect(isEnvelope(response.json, 400), label).toBe(true)
  expect((response.json as { message: string }).message, label).toBe(
    "cursor: not a cursor returned by this list."
  )
}

/** An organization with three members besides its owner, three invitations and three tokens. */
const populated = (name: string) =>
  Effect.gen(function* () {
    const owner = yield* signUp(`${name}-owner`)
    const organization = yield* createOrganization(owner, name)
    for (let i = 0; i < 3; i++) {
      yield* join(owner, organization.id, "member", `${name}-member-${i}`)
      yield* invite(owner, organization.id, uniqueEmail(`${name}-invitee-${i}`))
      yield* createToken(owner, organization.id)
    }
    return { owner, id: organization.id }
  })

for (const backend of backends) {
  describeNeeding(backend.missing)(`list cursors on ${backend.name}`, () => {
    layer(foundationServer(backend.database, { CREDENTIAL_RATE_LIMIT: "100000" }), {
      timeout: 120_000,
      excludeTestServices: true
    })((it) => {
      it.effect("a forged or altered cursor is 400 and pages nothing", () =>
        Effect.gen(function* () {
          const a = yield* populated("Forged")
          const first = yield* page(a.owner, `/organizations/${a.id}/members?limit=1`)
          expect(first.status).toBe(200)
          const cursor = first.page.nextCursor
          expect(cursor).not.toBeNull()
          // What an unsigned cursor would be: a position anyone can write (now, and a member's id).
          const target = first.page.items[0]?.id ?? ""
          const forged = [
            Buffer.from(`${Date.now()}.${target}`).toString("base64url"),
            Buffer.from(`0.${target}`).toString("base64url"),
            Buffer.from("8640000000000000.zzz").toString("base64url")
          ]
          const text = String(cursor)
          const flipped = (at: number) =>
            `${text.slice(0, at)}${text[at] === "A" ? "B" : "A"}${text.slice(at + 1)}`
          const altered = [flipped(0), flipped(text.length >> 1), flipped(text.length - 1), `${text}A`]
          for (const bad of [...forged, ...altered]) {
            for (const list of ["members", "invitations", "tokens"]) {
              expectInvalidCursor(
                yield* page(a.owner, `/organizations/${a.id}/${list}?limit=1&cursor=${bad}`),
                `${list} ${bad}`
              )
            }
          }
        })
      )

      it.effect("a cursor works only on the list that issued it", () =>
        Effect.gen(function* () {
          const a = yield* populated("Issuer")
          const b = yield* populated("Other")
          // Someone who belongs to both, so every list below is one they may read.
          const both = yield* join(a.owner, a.id, "admin", "both")
          const invitation = yield* invite(b.owner, b.id, both.account.email, "admin")
          const accepted = yield* call(`/invitations/${invitation.id}/accept`, {
            method: "POST",
            session: both.account.session
          })
          expect(accepted.status).toBe(200)
          const viewer = both.account
          for (const list of ["members", "invitations"]) {
            const first = yield* page(viewer, `/organizations/${a.id}/${list}?limit=1`)
            expect(first.status, first.text).toBe(200)
            const cursor = first.page.nextCursor
            expect(cursor, list).not.toBeNull()
            // Its own list continues with it.
            const next = yield* page(viewer, `/organizations/${a.id}/${list}?limit=1&cursor=${cursor}`)
            expect(next.status, next.text).toBe(200)
            expect(next.page.items[0]?.id).not.toBe(first.page.items[0]?.id)
            // Another organization's list of the same kind refuses it, and so do the other lists.
            expectInvalidCursor(
              yield* page(viewer, `/organizations/${b.id}/${list}?limit=1&cursor=${cursor}`),
              `${list} of another organization`
            )
            const otherList = list === "members" ? "invitations" : "members"
            expectInvalidCursor(
              yield* page(viewer, `/organizations/${a.id}/${otherList}?limit=1&cursor=${cursor}`),
              `a ${list} cursor on ${otherList}`
            )
          }
          // Tokens are listed by owners and admins: a cursor of A's tokens does not page B's.
          const tokens = yield* page(a.owner, `/organizations/${a.id}/tokens?limit=1`)
          expect(tokens.page.nextCursor).not.toBeNull()
          expectInvalidCursor(
            yield* page(b.owner, `/organizations/${b.id}/tokens?limit=1&cursor=${tokens.page.nextCursor}`),
            "tokens of another organization"
          )
        })
      )
    })
  })
}

class SecondInstance extends Context.Tag("SecondInstance")<
  SecondInstance,
  Context.Context<ServerAddress>
>() {}

/** Two instances on one PostgreSQL database, each with its own settings. */
const twoInstances = (first: Record<string, string>, second: Record<string, string>) =>
  Layer.unwrapScoped(
    Effect.gen(function* () {
      const url = yield* TestDatabaseUrl
      const other = yield* Layer.build(
        foundationServer(Effect.succeed({ DATABASE_URL: url }), {
          CREDENTIAL_RATE_LIMIT: "100000",
          ...second
        })
      )
      return Layer.succeed(SecondInstance, other)
    })
  ).pipe(Layer.provideMerge(postgresFoundationServer({ CREDENTIAL_RATE_LIMIT: "100000", ...first })))

/** Page 1 from the first instance, page 2 with its cursor from the second. */
const acrossInstances = Effect.gen(function* () {
  const second = yield* SecondInstance
  const a = yield* populated("Scaled")
  const first = yield* page(a.owner, `/organizations/${a.id}/members?limit=2`)
  expect(first.status).toBe(200)
  return yield* page(a.owner, `/organizations/${a.id}/members?limit=2&cursor=${first.page.nextCursor}`).pipe(
    Effect.provide(second)
  )
})

describeNeeding(postgresUnavailable)("list cursors across instances", () => {
  layer(twoInstances({}, {}), { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect("without a configured secret, instances on one database accept each other's cursors", () =>
      Effect.gen(function* () {
        const next = yield* acrossInstances
        expect(next.status, next.text).toBe(200)
        expect(next.page.items).toHaveLength(2)
      })
    )
  })

  const secret = (letter: string) => ({ FOUNDATION_CURSOR_SECRET: letter.repeat(40) })
  layer(twoInstances(secret("s"), secret("s")), { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect("with one configured secret, instances accept each other's cursors", () =>
      Effect.gen(function* () {
        const next = yield* acrossInstances
        expect(next.status, next.text).toBe(200)
        expect(next.page.items).toHaveLength(2)
      })
    )
  })

  layer(twoInstances(secret("s"), secret("t")), { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect("instances with different secrets refuse each other's cursors", () =>
      Effect.gen(function* () {
        expectInvalidCursor(yield* acrossInstances, "a cursor signed with another secret")
      })
    )
  })
})
