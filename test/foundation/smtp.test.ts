// Mail goes out for real with MAIL_URL: the service sends its verification, email change and
// invitation messages to an SMTP server on loopback (smtp-server, with authentication), each once,
// with its link and a Message-ID made from the outbox id; a server that refuses is retried with the
// outbox's back-off until it accepts, its answer kept in `last_error`; and neither the links nor the
// SMTP password ever reach the log.
import { describe, expect, it, layer } from "@effect/vitest"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { SMTPServer } from "smtp-server"
import { foundationSettingsConfig } from "../../src/foundation/FoundationConfig.js"
import { readServerSettings } from "../../src/ServerConfig.js"
import { describeNeeding } from "../support/Needs.js"
import { backends, postgresUnavailable } from "./support/Backends.js"
import {
  call,
  createOrganization,
  foundationServer,
  invite,
  logLines,
  postgresFoundationServer,
  signUp,
  sqlQuery,
  uniqueEmail
} from "./support/FoundationClient.js"

// Test files share a worker process and its log (vitest's isolate: false): this file reads the lines
// written since it started.
const firstLine = logLines.length
const logSinceStart = () => logLines.slice(firstLine).join("\n")

const smtpUser = "mailer"
const smtpPassword = "s3cret-smtp-passw0rd"

interface Received {
  readonly to: ReadonlyArray<string>
  readonly subject: string
  readonly messageId: string
  readonly body: string
}

/** The text of a message's body, quoted-printable decoded when it is so encoded. */
const bodyOf = (raw: string): string => {
  const split = raw.indexOf("\r\n\r\n")
  const head = raw.slice(0, split)
  const body = raw.slice(split + 4)
  if (!/content-transfer-encoding:\s*quoted-printable/i.test(head)) return body
  return body
    .replace(/=\r\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
}

const header = (raw: string, name: string) =>
  new RegExp(`^${name}:\\s*(.*)$`, "im").exec(raw.slice(0, raw.indexOf("\r\n\r\n")))?.[1]?.trim() ?? ""

/** An SMTP server on loopback that requires a login, keeps what it receives, and can refuse. */
class Mailbox extends Context.Tag("Mailbox")<
  Mailbox,
  {
    readonly url: string
    readonly received: Array<Received>
    /** Refuses RCPT TO for `address` with 451 this many more times. */
    readonly refuse: (address: string, times: number) => void
    readonly refusals: Map<string, number>
  }
>() {}

const mailbox = Layer.scoped(
  Mailbox,
  Effect.acquireRelease(
    Effect.async<{
      server: SMTPServer
      port: number
      received: Array<Received>
      refusals: Map<string, number>
    }>((resume) => {
      const received: Array<Received> = []
      const refusals = new Map<string, number>()
      const server = new SMTPServer({
        logger: false,
        disabledCommands: ["STARTTLS"],
        // Loopback only, for the test: a login over plain text.
        allowInsecureAuth: true,
        onAuth: (auth, _session, callback) =>
          auth.username === smtpUser && auth.password === smtpPassword
            ? callback(null, { user: smtpUser })
            : callback(new Error("Invalid username or password")),
        onRcptTo: (address, _session, callback) => {
          const left = refusals.get(address.address) ?? 0
          if (left === 0) return callback()
          refusals.set(address.address, left - 1)
          callback(Object.assign(new Error("Mailbox busy, try again later"), { responseCode: 451 }))
        },
        onData: (stream, session, callback) => {
          const chunks: Array<Buffer> = []
          stream.on("data", (chunk: Buffer) => chunks.push(chunk))
          stream.on("end", () => {
            const raw = Buffer.concat(chunks).toString("utf8")
            received.push({
              to: session.envelope.rcptTo.map((recipient) => recipient.address),
              subject: header(raw, "Subject"),
              messageId: header(raw, "Message-ID"),
              body: bodyOf(raw)
            })
            callback()
          })
        }
      })
      server.listen(0, "127.0.0.1", () => {
        const address = server.server.address()
        const port = typeof address === "object" && address !== null ? address.port : 0
        resume(Effect.succeed({ server, port, received, refusals }))
      })
    }),
    ({ server }) => Effect.async<void>((resume) => server.close(() => resume(Effect.void)))
  ).pipe(
    Effect.map(({ port, received, refusals }) => ({
      url: `smtp://${smtpUser}:${smtpPassword}@127.0.0.1:${port}`,
      received,
      refusals,
      refuse: (address: string, times: number) => {
        refusals.set(address, times)
      }
    }))
  )
)

/** Waits (briefly) for the messages to `recipient`. */
const messagesTo = (recipient: string, count = 1) =>
  Effect.gen(function* () {
    const { received } = yield* Mailbox
    for (let attempt = 0; attempt < 200; attempt++) {
      const found = received.filter((message) => message.to.includes(recipient))
      if (found.length >= count) return found
      yield* Effect.sleep("50 millis")
    }
    throw new Error(`No message to ${recipient}`)
  })

const linkIn = (message: Received) => {
  const link = /https?:\/\/\S+/.exec(message.body)?.[0]
  if (link === undefined) throw new Error(`No link in ${message.body}`)
  return new URL(link)
}

/** The service with its outbox sending to the mailbox; `env` on top. */
const withMail = <A, E, R>(server: (env: Record<string, string>) => Layer.Layer<A, E, R>) =>
  Layer.unwrapEffect(
    Effect.map(Mailbox, ({ url }) =>
      server({
        MAIL_URL: url,
        MAIL_FROM: '"Podcast platform" <no-reply@foundation.test>',
        OUTBOX_RETRY_BASE_MS: "100"
      })
    )
  ).pipe(Layer.provideMerge(mailbox))

describe("mail settings", () => {
  const settings = (env: Record<string, string>) =>
    Effect.withConfigProvider(
      Effect.flatMap(readServerSettings, (server) => foundationSettingsConfig(server.publicOrigin)),
      ConfigProvider.fromMap(new Map(Object.entries(env)))
    )

  it.effect(
    "without MAIL_URL messages go to the log; with it, MAIL_FROM defaults to the public origin's host",
    () =>
      Effect.gen(function* () {
        expect((yield* settings({})).mail._tag).toBe("None")
        const mail = (yield* settings({
          MAIL_URL: "smtps://u:p@mail.example:465",
          PUBLIC_ORIGIN: "https://app.example"
        })).mail
        expect(mail._tag === "Some" ? mail.value.from : undefined).toBe("no-reply@app.example")
      })
  )

  it.effect("a MAIL_URL that is not smtp:// or smtps:// stops start-up, naming it and not its password", () =>
    Effect.gen(function* () {
      for (const url of ["http://user:hunter2@mail.example", "smtp://", "mail.example:25"]) {
        const error = yield* Effect.flip(settings({ MAIL_URL: url }))
        expect(String(error), url).toContain("MAIL_URL must be an smtp:// or smtps:// URL")
        expect(String(error), url).not.toContain("hunter2")
      }
    })
  )
})

for (const backend of backends) {
  describeNeeding(backend.missing)(`mail by SMTP on ${backend.name}`, () => {
    layer(
      withMail((env) => foundationServer(backend.database, env)),
      {
        timeout: 120_000,
        excludeTestServices: true
      }
    )((it) => {
      it.effect(
        "verification, email change and invitation messages arrive once each, with their links, and are not logged",
        () =>
          Effect.gen(function* () {
            const account = yield* signUp("smtp")
            const [verification] = yield* messagesTo(account.email)
            expect(verification?.subject).toBe("Confirm your email address")
            expect(verification?.messageId).toMatch(/^<outbox-\d+@foundation\.test>$/)
            const verify = linkIn(verification as Received)
            expect(verify.pathname).toBe("/verify-email")
            const verified = yield* call("/auth/verify-email", {
              body: { token: verify.searchParams.get("token") }
            })
            expect(verified.status).toBe(200)

            const newEmail = uniqueEmail("smtp-new")
            expect(
              (yield* call("/profile/email", { session: account.session, body: { email: newEmail } })).status
            ).toBe(200)
            const [change] = yield* messagesTo(newEmail)
            expect(change?.subject).toBe("Confirm your new email address")
            expect(linkIn(change as Received).pathname).toBe("/verify-email")

            const organization = yield* createOrganization(account)
            const inviteeEmail = uniqueEmail("smtp-invitee")
            const invitation = yield* invite(account, organization.id, inviteeEmail)
            const [invited] = yield* messagesTo(inviteeEmail)
            expect(invited?.subject).toBe("You are invited to join an organization")
            expect(linkIn(invited as Received).searchParams.get("invitation")).toBe(invitation.id)

            // Each once: no second copy arrives while the worker keeps polling.
            yield* Effect.sleep("500 millis")
            const { received } = yield* Mailbox
            for (const recipient of [account.email, newEmail, inviteeEmail]) {
              expect(received.filter((message) => message.to.includes(recipient))).toHaveLength(1)
            }
            const log = logSinceStart()
            expect(log).not.toContain("token=")
            expect(log).not.toContain("invitation=")
            expect(log).not.toContain(smtpPassword)
          })
      )
    })
  })
}

describeNeeding(postgresUnavailable)("mail by SMTP to a server that refuses", () => {
  layer(withMail(postgresFoundationServer), { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect(
      "is retried with back-off until accepted, arrives once, and keeps the refusal in last_error",
      () =>
        Effect.gen(function* () {
          const email = uniqueEmail("smtp-refused")
          ;(yield* Mailbox).refuse(email, 2)
          const signedUp = yield* call("/auth/sign-up", {
            body: { email, password: "a long enough passphrase", name: "Refused" }
          })
          expect(signedUp.status).toBe(200)
          const messages = yield* messagesTo(email)
          expect(messages).toHaveLength(1)
          expect((yield* Mailbox).refusals.get(email)).toBe(0)
          const [row] = yield* sqlQuery(
            "SELECT attempts, last_error, delivered_at, link FROM outbox WHERE recipient = $1",
            [email]
          )
          expect(row?.attempts).toBe(3)
          expect(String(row?.last_error)).toContain("451")
          expect(row?.delivered_at).not.toBeNull()
          expect(row?.link).toBeNull()
          yield* Effect.sleep("500 millis")
          expect((yield* Mailbox).received.filter((message) => message.to.includes(email))).toHaveLength(1)
          expect(logSinceStart()).not.toContain(smtpPassword)
        })
    )
  })
})
