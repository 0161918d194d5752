// Where outbox messages go. The default transport writes each message to the log as one line with
// its recipient and link, so a person running the service locally can follow the links. This is the
// only place a (one-time, email) token is logged, by design of the contract.
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

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
}
