// PKCE with S256 only (RFC 7636 §4.6, OAuth 2.1): the check that the client exchanging a code is the
// one that asked for it. node:crypto does the hashing and the constant-time comparison.
import { createHash, timingSafeEqual } from "node:crypto"

/** RFC 7636 §4.1: 43 to 128 characters of [A-Z a-z 0-9 - . _ ~]. */
const verifierPattern = /^[A-Za-z0-9\-._~]{43,128}$/
/** BASE64URL(SHA256(verifier)) is always 43 characters, unpadded. */
const challengePattern = /^[A-Za-z0-9\-_]{43}$/

/** True when `value` can be an S256 code challenge. */
export const isCodeChallenge = (value: string): boolean => challengePattern.test(value)

/** True when `verifier` hashes to `challenge`. */
export const verifyS256 = (verifier: string, challenge: string): boolean => {
  if (!verifierPattern.test(verifier) || !challengePattern.test(challenge)) return false
  // The canonical base64url text is compared, not decoded bytes: decoding ignores the low bits of
  // the last character, so two different challenge strings would decode to the same bytes.
  const computed = Buffer.from(createHash("sha256").update(verifier, "ascii").digest("base64url"), "ascii")
  const expected = Buffer.from(challenge, "ascii")
  // The challenge is not secret, but a constant-time comparison leaves nothing to argue about.
  return computed.length === expected.length && timingSafeEqual(computed, expected)
}
