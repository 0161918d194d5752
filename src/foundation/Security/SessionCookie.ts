// The `Set-Cookie` values of the session cookie, written by hand so its flags are exactly those of
// the contract: `HttpOnly; Secure; SameSite=Lax; Path=/`.
import * as Duration from "effect/Duration"
import { SESSION_COOKIE } from "./Authentication.js"

const flags = "HttpOnly; Secure; SameSite=Lax; Path=/"

/** Sets the cookie for `lifetime` (the session's sliding expiry). */
export const sessionCookie = (token: string, lifetime: Duration.Duration): string =>
  `${SESSION_COOKIE}=${token}; ${flags}; Max-Age=${Math.floor(Duration.toSeconds(lifetime))}`

/** Clears the cookie in the browser. */
export const clearedSessionCookie = `${SESSION_COOKIE}=; ${flags}; Max-Age=0`
