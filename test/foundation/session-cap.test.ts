// An account holds at most MAX_SESSIONS_PER_USER live sessions: a sign-in past it ends the least
// recently used, so `security.sessions` (one page by contract) stays bounded however often the
// account signs in. Found by a 30-minute soak, whose one account signed in ≈ 18,000 times and whose
// session list grew with every sign-in.
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { describeNeeding } from "../support/Needs.js"
import { backends } from "./support/Backends.js"
import { call, foundationServer, sessionFrom, signUp } from "./support/FoundationClient.js"

for (const backend of backends) {
  describeNeeding(backend.missing)(`the sessions an account may hold on ${backend.name}`, () => {
    layer(foundationServer(backend.database, { MAX_SESSIONS_PER_USER: "3" }), {
      timeout: 120_000,
      excludeTestServices: true
    })((it) => {
      it.effect("a sign-in past the limit ends the oldest session, and the list stays at the limit", () =>
        Effect.gen(function* () {
          const account = yield* signUp("capped")
          const sessions = [account.session]
          for (let i = 0; i < 3; i++) {
            const signedIn = yield* call("/auth/sign-in", {
              body: { email: account.email, password: account.password }
            })
            expect(signedIn.status).toBe(200)
            sessions.push(sessionFrom(signedIn))
          }
          // The sign-up's session was the least recently used: it ended; the three newest live.
          expect((yield* call("/profile", { session: account.session })).status).toBe(401)
          for (const session of sessions.slice(1)) {
            expect((yield* call("/profile", { session })).status).toBe(200)
          }
          const listed = yield* call("/security/sessions", { session: sessions[3] ?? "" })
          expect(listed.status).toBe(200)
          const items = (listed.json as { items: Array<{ current: boolean }>; nextCursor: null }).items
          expect(items).toHaveLength(3)
          expect(items.filter((item) => item.current)).toHaveLength(1)
          // Another account's sign-ins end none of this one's.
          const other = yield* signUp("capped-other")
          for (let i = 0; i < 3; i++) {
            yield* call("/auth/sign-in", { body: { email: other.email, password: other.password } })
          }
          for (const session of sessions.slice(1)) {
            expect((yield* call("/profile", { session })).status).toBe(200)
          }
        })
      )
    })
  })
}
