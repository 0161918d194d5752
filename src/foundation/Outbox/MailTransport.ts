// Where outbox messages go. The default transport writes each message to the log as one line with
// its recipient and link, so a person running the service locally can follow the links. This is the
// only place a (one-time, email) token is logged, by design of the contract. With MAIL_URL set,
// messages go out by SMTP instead (nodemailer), and nothing about them is logged: neither the link
// nor the server's password. A refused or failed delivery fails here and the outbox retries it with
// its back-off (Outbox.ts), keeping the server's answer in `last_error`.
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { createTransport } from "nodemailer"
import { FoundationConfig } from "../FoundationConfig.js"

export interface OutboxMessage {
  /**
   * The same on every attempt to deliver this message. Delivery is at-least-once (a crash between
   * sending and recording it sends again): a transport whose provider takes an idempotency key (an
   * email API's `Idempotency-Key`, a fixed `Message-ID`) should pass this id, so a repeat is dropped.
   */
  readonly id: number
  readonly kind: string
  readonly recipient: string
  readonly link: string | null
}

/** The SMTP transport's settings (FoundationConfig.ts reads them). */
export interface SmtpSettings {
  /** `smtp://user:password@host:587` (STARTTLS when offered) or `smtps://…:465` (TLS from the start). */
  readonly url: Redacted.Redacted
  /** The From address, e.g. `"Podcast platform" <no-reply@example.com>`. */
  readonly from: string
}

/** What each kind of message says; the link is the one thing the recipient must act on. */
const contents: Record<string, { readonly subject: string; readonly intro: string }> = {
  "verify-email": {
    subject: "Confirm your email address",
    intro: "Follow this link to confirm the email address of your new account:"
  },
  "change-email": {
    subject: "Confirm your new email address",
    intro: "Follow this link to confirm the new email address of your account:"
  },
  invitation: {
    subject: "You are invited to join an organization",
    intro: "You have been invited to join an organization. Follow this link to accept or decline:"
  }
}

const text = (message: OutboxMessage) => {
  const content = contents[message.kind] ?? { subject: "A message from the service", intro: "" }
  const lines = [content.intro, "", message.link ?? "", "", "If you did not expect this message, ignore it."]
  return { subject: content.subject, text: `${lines.join("\n").trim()}\n` }
}

/** The domain a Message-ID is made in: the From address's, else `localhost`. */
const messageIdDomain = (from: string) => /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? "localhost"

/**
 * Connection, greeting and socket timeouts: a server that stops answering fails the attempt well
 * within the outbox's one-minute bound on a delivery.
 */
const timeouts = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 }

export class MailTransport extends Context.Tag("MailTransport")<
  MailTransport,
  { readonly deliver: (message: OutboxMessage) => Effect.Effect<void, Error> }
>() {
  static readonly log = Layer.succeed(MailTransport, {
    deliver: (message) =>
      Effect.logInfo(
        `Outbox ${message.kind} #${message.id} to ${message.recipient}${message.link === null ? "" : `: ${message.link}`}`
      )
  })

  /** Delivery by SMTP. The Message-ID is derived from the outbox id, so a repeat can be recognised. */
  static readonly smtp = (settings: SmtpSettings) =>
    Layer.scoped(
      MailTransport,
      Effect.acquireRelease(
        Effect.sync(() =>
          createTransport(Redacted.value(settings.url), { ...timeouts, from: settings.from })
        ),
        (transporter) => Effect.sync(() => transporter.close())
      ).pipe(
        Effect.map((transporter) => ({
          deliver: (message: OutboxMessage) =>
            Effect.tryPromise({
              try: () =>
                transporter.sendMail({
                  to: message.recipient,
                  messageId: `<outbox-${message.id}@${messageIdDomain(settings.from)}>`,
                  ...text(message)
                }),
              // The server's own words (e.g. "451 4.3.0 try again later") are what `last_error` keeps.
              catch: (cause) => new Error(cause instanceof Error ? cause.message : String(cause))
            }).pipe(Effect.asVoid)
        }))
      )
    )

  /** SMTP when MAIL_URL is set, the log otherwise. */
  static readonly layer = Layer.unwrapEffect(
    Effect.map(FoundationConfig, ({ mail }) =>
      Option.match(mail, { onNone: () => MailTransport.log, onSome: MailTransport.smtp })
    )
  )
}
