// The token that binds a page's form to the session that was shown it (against cross-site requests):
// an HMAC keyed with the session token, which only the session's cookie holds, over what the form
// decides. Another site can neither read it from the page nor compute it; it needs no storage.
import { createHmac, timingSafeEqual } from "node:crypto"

/** The token of a form for `purpose` (e.g. `oauth-consent`) about `subject`, for this session. */
export const sessionFormToken = (sessionToken: string, purpose: string, subject: string): string =>
  createHmac("sha256", sessionToken).update(`${purpose}\n${subject}`).digest("base64url")

/** Compares a posted token with the expected one in constant time. */
export const sameFormToken = (given: string, expected: string): boolean => {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}
