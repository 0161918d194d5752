// Messages caused by a change (email verification, email change, invitation) are written to the
// outbox table by the same transaction as the change, so a message exists exactly when its cause
// was committed. The worker below delivers them.
//
// Delivery is at-least-once. The worker leases a batch in one short statement (no transaction stays
// open, no row stays locked, and on PGlite the one connection is free for requests), hands each
// message to the transport, then records the outcome in another statement: delivered (the link,
// which holds a token, is erased), or failed (`last_error` kept, retried after a back-off that
// doubles up to an hour; nothing is ever dropped). A worker that dies between sending and recording
// leaves its lease to run out, and the message is sent again with the same id: the transport can
// make that repeat harmless only if its provider takes an idempotency key (see `OutboxMessage.id`).
// Leases also keep several instances from sending one message at the same time.
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Cause from "effect/Cause"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Schema from "effect/Schema"
import {
  observeMetrics,
  outboxBacklog,
  outboxDeliveryFailures,
  outboxOldestAge
} from "../../observability/ServiceMetrics.js"
import { repositoryCall } from "../Database/DatabaseEdge.js"
import { FoundationConfig } from "../FoundationConfig.js"
import { MailTransport } from "./MailTransport.js"

export type MessageKind = "verify-email" | "change-email" | "invitation"

export interface NewMessage {
  readonly kind: MessageKind
  readonly recipient: string
  /** A link for the recipient to follow, under the public origin. */
  readonly link: string
}

/** Messages leased at once. */
const BATCH = 20
/** How long a lease keeps other workers off a message: far longer than one delivery may take. */
const LEASE_SECONDS = 300
/** A delivery still running after this counts as failed (it may have been sent: at-least-once). */
const DELIVERY_TIMEOUT = Duration.minutes(1)
/** The longest wait between two attempts. */
const MAX_BACKOFF_SECONDS = 3600
/** `last_error` keeps the start of a transport's message, which could be long. */
const MAX_ERROR_LENGTH = 1000

export class Outbox extends Effect.Service<Outbox>()("Outbox", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const { publicOrigin } = yield* FoundationConfig
    // Wakes the local worker early; other instances' messages are found by polling.
    const doorbell = yield* Queue.sliding<void>(1)

    /** Writes a message; call it inside the transaction of the change that causes it. */
    const enqueue = repositoryCall("Outbox.enqueue", (message: NewMessage) =>
      sql`INSERT INTO outbox (kind, recipient, link) VALUES (${message.kind}, ${message.recipient}, ${message.link})`.pipe(
        Effect.asVoid
      )
    )

    /** Tells the local worker to look now; call it once the transaction has committed. */
    const wake: Effect.Effect<void> = Effect.asVoid(doorbell.offer(undefined))

    /** `<PUBLIC_ORIGIN><path>?token=…` (or another parameter `name`). */
    const link = (path: `/${string}`, token: string, name = "token") =>
      `${publicOrigin}${path}?${name}=${encodeURIComponent(token)}`

    return { enqueue, wake, link, doorbell }
  })
}) {}

/** A leased message, with the attempt this lease is (it fences the outcome against a later lease). */
const LeasedMessage = Schema.Struct({
  id: Schema.Int,
  kind: Schema.String,
  recipient: Schema.String,
  link: Schema.NullOr(Schema.String),
  attempts: Schema.Int
})
type LeasedMessage = typeof LeasedMessage.Type

/** What waits in the outbox: the table's, so every instance reports the same numbers. */
const Backlog = Schema.Struct({ messages: Schema.Int, oldestSeconds: Schema.Number })

const describeFailure = (cause: Cause.Cause<Error | Cause.TimeoutException>): string => {
  const failure = Cause.squash(cause)
  const text = failure instanceof Error ? failure.message || failure.name : String(failure)
  return text.slice(0, MAX_ERROR_LENGTH)
}

export const OutboxWorker = Layer.scopedDiscard(
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const transport = yield* MailTransport
    const outbox = yield* Outbox
    const { outboxPollInterval, outboxRetryBase } = yield* FoundationConfig
    const retryBaseSeconds = Duration.toSeconds(outboxRetryBase)

    /**
     * Leases up to BATCH due messages that nobody holds (or whose holder's lease ran out), counting
     * the attempt. `SKIP LOCKED` lets concurrent workers take different messages instead of waiting.
     */
    const lease = repositoryCall(
      "OutboxWorker.lease",
      SqlSchema.findAll({
        Request: Schema.Void,
        Result: LeasedMessage,
        execute: () => sql`
          UPDATE outbox SET attempts = attempts + 1,
            claimed_until = now() + make_interval(secs => ${LEASE_SECONDS}::int)
          WHERE id IN (
            SELECT id FROM outbox
            WHERE delivered_at IS NULL AND available_at <= now()
              AND (claimed_until IS NULL OR claimed_until <= now())
            ORDER BY id LIMIT ${BATCH}
            FOR UPDATE SKIP LOCKED)
          RETURNING id, kind, recipient, link, attempts`
      })
    )

    /** Delivered: whichever lease sent it, it is done; the link's token is erased. */
    const markDelivered = repositoryCall("OutboxWorker.markDelivered", (id: number) =>
      sql`UPDATE outbox SET delivered_at = now(), link = NULL, claimed_until = NULL WHERE id = ${id}`.pipe(
        Effect.asVoid
      )
    )

    /**
     * Failed: kept for a later attempt, `base · 2^(attempts − 1)` seconds on, capped. Only while this
     * lease is the latest (a worker that outlived its lease must not reschedule another's attempt).
     */
    const markFailed = repositoryCall("OutboxWorker.markFailed", (message: LeasedMessage, error: string) =>
      sql`
        UPDATE outbox SET last_error = ${error}, claimed_until = NULL,
          available_at = now() + make_interval(secs => least(${MAX_BACKOFF_SECONDS}::float8,
            ${retryBaseSeconds}::float8 * power(2, attempts - 1)))
        WHERE id = ${message.id} AND attempts = ${message.attempts} AND delivered_at IS NULL`.pipe(
        Effect.asVoid
      )
    )

    const deliver = (message: LeasedMessage) =>
      transport
        .deliver({ id: message.id, kind: message.kind, recipient: message.recipient, link: message.link })
        .pipe(
          Effect.timeout(DELIVERY_TIMEOUT),
          Effect.matchCauseEffect({
            onSuccess: () => markDelivered(message.id),
            onFailure: (cause) => {
              outboxDeliveryFailures.unsafeUpdate(1, [])
              return markFailed(message, describeFailure(cause))
            }
          })
        )

    /** Leases, delivers and records batches until fewer than a full batch were due. */
    const drain: Effect.Effect<void, Effect.Effect.Error<ReturnType<typeof lease>>> = Effect.flatMap(
      lease(undefined),
      (messages) =>
        Effect.zipRight(
          Effect.forEach(
            [...messages].sort((a, b) => a.id - b.id),
            deliver,
            { discard: true }
          ),
          messages.length === BATCH ? drain : Effect.void
        )
    )

    // The backlog in the metrics, read at each collection (one count over the pending rows' index);
    // a database that does not answer leaves the gauges as they were.
    const backlog = SqlSchema.single({
      Request: Schema.Void,
      Result: Backlog,
      execute: () => sql`
        SELECT count(*)::int AS messages,
          coalesce(extract(epoch FROM now() - min(created_at)), 0)::float8 AS oldest_seconds
        FROM outbox WHERE delivered_at IS NULL`
    })
    yield* observeMetrics(
      backlog(undefined).pipe(
        Effect.tap(({ messages, oldestSeconds }) =>
          Effect.sync(() => {
            outboxBacklog.unsafeUpdate(messages, [])
            outboxOldestAge.unsafeUpdate(oldestSeconds, [])
          })
        ),
        Effect.ignore
      )
    )

    const waitForWork = Effect.race(outbox.doorbell.take, Effect.sleep(outboxPollInterval))

    // One line when delivery starts failing and one when it recovers, not one per poll. A database
    // that cannot answer postpones delivery; anything else is a bug, logged with its cause.
    let failing = false
    yield* drain.pipe(
      Effect.matchCauseEffect({
        onFailure: (cause) => {
          if (failing) return Effect.void
          failing = true
          return Option.isSome(Cause.failureOption(cause))
            ? Effect.logWarning("Outbox delivery postponed until the database answers")
            : Effect.logError("Outbox delivery failed", cause)
        },
        onSuccess: () => {
          if (!failing) return Effect.void
          failing = false
          return Effect.logInfo("Outbox delivery resumed")
        }
      }),
      Effect.zipRight(waitForWork),
      Effect.forever,
      // A poll a second would bury the requests' traces under traces of its own.
      Effect.withTracerEnabled(false),
      Effect.forkScoped
    )
  })
)
