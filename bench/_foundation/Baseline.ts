// The pieces of a minimal node:http + pg baseline that every foundation benchmark needs: the same
// credential lookups and rate-limit upsert as the service, with the same SQL and no framework.
import { createHash } from "node:crypto"
import * as Http from "node:http"
import * as Pg from "pg"
import { RATE_LIMIT } from "./Harness.js"

export interface BearerRow {
  readonly id: string
  readonly organization_id: string
  readonly scopes: ReadonlyArray<string>
}

export interface SessionRow {
  readonly id: string
  readonly user_id: string
  readonly active_organization_id: string | null
}

export type Handler = (
  request: Http.IncomingMessage,
  response: Http.ServerResponse,
  tools: BaselineTools
) => Promise<void>

export interface BaselineTools {
  readonly pool: Pg.Pool
  readonly send: (response: Http.ServerResponse, status: number, body: unknown) => void
  /** The live token of a `Bearer <token>` header (its last use refreshed when stale), or none. */
  readonly bearer: (authorization: string) => Promise<BearerRow | undefined>
  /** The live session of the cookie header (its expiry slid when stale), or none. */
  readonly session: (cookieHeader: string | undefined) => Promise<SessionRow | undefined>
  /** The shared counter upsert; false once over the limit. */
  readonly limit: (key: string) => Promise<boolean>
}

const hash = (secret: string) => createHash("sha256").update(secret).digest("hex")

/** Serves `handler` on `port` with a pool of 10 on `databaseUrl`; prints `ready` when listening. */
export const serveBaseline = (databaseUrl: string, port: number, handler: Handler) => {
  const pool = new Pg.Pool({ connectionString: databaseUrl, max: 10 })
  pool.on("error", () => {})
  const send = (response: Http.ServerResponse, status: number, body: unknown) => {
    const text = JSON.stringify(body)
    response.writeHead(status, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(text)
    })
    response.end(text)
  }
  const tools: BaselineTools = {
    pool,
    send,
    limit: async (key) => {
      const { rows } = await pool.query(
        `INSERT INTO rate_limit_counters AS c (key, window_start, count)
         VALUES ($1, to_timestamp(floor(extract(epoch FROM now()) / 60) * 60), 1)
         ON CONFLICT (key) DO UPDATE SET
           count = CASE WHEN c.window_start = EXCLUDED.window_start THEN c.count + 1 ELSE 1 END,
           window_start = EXCLUDED.window_start
         RETURNING count`,
        [key]
      )
      return (rows[0]?.count ?? 0) <= RATE_LIMIT
    },
    bearer: async (authorization) => {
      const match = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/.exec(authorization)
      if (!match?.[1]) return undefined
      const { rows } = await pool.query(
        `SELECT id, organization_id, scopes,
           (last_used_at IS NULL OR last_used_at < now() - interval '1 minute') AS stale
         FROM api_tokens WHERE token_hash = $1 AND revoked_at IS NULL AND expires_at > now()`,
        [hash(match[1])]
      )
      const token = rows[0]
      if (!token) return undefined
      if (token.stale)
        await pool.query("UPDATE api_tokens SET last_used_at = now() WHERE id = $1", [token.id])
      return token
    },
    session: async (cookieHeader) => {
      const cookie = /(?:^|;\s*)__Secure-service\.session_token=([^;]*)/.exec(cookieHeader ?? "")?.[1]
      if (!cookie) return undefined
      const { rows } = await pool.query(
        `SELECT s.id, s.user_id,
           (SELECT m.organization_id FROM members m
             WHERE m.organization_id = s.active_organization_id AND m.user_id = s.user_id) AS active_organization_id,
           s.last_seen_at < now() - interval '1 minute' AS stale
         FROM sessions s WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND s.expires_at > now()`,
        [hash(cookie)]
      )
      const session = rows[0]
      if (!session) return undefined
      if (session.stale) {
        await pool.query(
          "UPDATE sessions SET last_seen_at = now(), expires_at = now() + interval '30 days' WHERE id = $1",
          [session.id]
        )
      }
      return session
    }
  }
  Http.createServer((request, response) => {
    handler(request, response, tools).catch(() => send(response, 503, { code: "SERVICE_UNAVAILABLE" }))
  }).listen(port, "127.0.0.1", () => process.stdout.write("ready\n"))
}
