// Messages caused by a change (email verification, email change, invitation) are written to the
// outbox table by the same transaction as the change, so a message exists exactly when its cause
// was committed. The worker hands pending messages to the transport and marks them delivered.
import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Queue from "effect/Queue"
import { repositoryCall } from "../Database/DatabaseEdge.js"
import { FoundationConfig } from "../FoundationConfig.js"
import { MailTransport, type OutboxMessage } from "./MailTransport.js"

export type MessageKind = "verify-email" | "change-email" | "invitation"

export interface NewMessage {
  readonly kind: MessageKind
  readonly recipient: string
  /** A link for the recipient to follow, under the public origin. */
  readonly link: string
}

const BATCH = 20

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

/**
 * Delivers pending messages: each batch is claimed with `FOR UPDATE SKIP LOCKED` so several
 * instances never deliver the same message, and a failed delivery is retried later with back-off.
 * The link is erased once delivered: it holds a token that should not stay readable in the table.
 */
export const OutboxWorker = Layer.scopedDiscard(
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const transport = yield* MailTransport
    const outbox = yield* Outbox
    const { outboxPollInterval } = yield* FoundationConfig

    const deliverBatch = sql.withTransaction(
      Effect.gen(function* () {
        const rows = yield* sql<OutboxMessage>`
          SELECT id, kind, recipient, link FROM outbox
          WHERE delivered_at IS NULL AND available_at <= now()
          ORDER BY id LIMIT ${BATCH}
          FOR UPDATE SKIP LOCKED`
        for (const message of rows) {
          yield* transport.deliver(message).pipe(
            Effect.matchEffect({
              onSuccess: () =>
                sql`UPDATE outbox SET delivered_at = now(), link = NULL WHERE id = ${message.id}`,
              onFailure: (error) => sql`
                UPDATE outbox SET attempts = attempts + 1, last_error = ${error.message},
                  available_at = now() + make_interval(secs => least(3600, 5 * power(2, attempts)))
                WHERE id = ${message.id}`
            })
          )
        }
        return rows.length
      })
    )

    const drain: Effect.Effect<void, SqlError> = Effect.flatMap(deliverBatch, (count) =>
      count === BATCH ? drain : Effect.void
    )

    const waitForWork = Effect.race(outbox.doorbell.take, Effect.sleep(outboxPollInterval))

    // One line when delivery starts failing and one when it recovers, not one per poll.
    let failing = false
    yield* drain.pipe(
      Effect.matchEffect({
        onFailure: (error) => {
          if (failing) return Effect.void
          failing = true
          return Effect.logWarning(`Outbox delivery postponed until the database answers: ${error.message}`)
        },
        onSuccess: () => {
          if (!failing) return Effect.void
          failing = false
          return Effect.logInfo("Outbox delivery resumed")
        }
      }),
      Effect.zipRight(waitForWork),
      Effect.forever,
      Effect.forkScoped
    )
  })
)
