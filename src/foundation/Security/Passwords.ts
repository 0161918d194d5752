// Passwords: hashing with scrypt (node:crypto), a random salt per password and the cost parameters
// stored with the hash so they can be raised later without breaking existing accounts; a bound on
// how many hashes run at once; and the rule that refuses easily guessed new passwords.
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto"
import { dictionary } from "@zxcvbn-ts/language-common"
import * as Effect from "effect/Effect"
import { PasswordChecksBusy } from "../Domain/Errors.js"
import { DEFAULT_PASSWORD_HASH_COST, FoundationConfig } from "../FoundationConfig.js"

const KEY_LENGTH = 32
/** Block size and parallelism; N comes from PASSWORD_HASH_COST (2^15 by default: ~50 ms, 32 MiB). */
const R = 8
const P = 1

interface Cost {
  readonly N: number
  readonly r: number
  readonly p: number
}

/** `scrypt$N$r$p`: what a stored hash says of the cost it was made with. */
const costPrefix = (cost: Cost) => `scrypt$${cost.N}$${cost.r}$${cost.p}`

const derive = (password: string, salt: Buffer, cost: Cost) =>
  Effect.async<Buffer, Error>((resume) => {
    // scrypt needs 128·N·r bytes; the default ceiling (32 MiB) is exactly that at N = 2^15, r = 8.
    const options = { ...cost, maxmem: 256 * cost.N * cost.r }
    scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, options, (error, key) =>
      resume(error ? Effect.fail(error) : Effect.succeed(key))
    )
  })

export class Passwords extends Effect.Service<Passwords>()("Passwords", {
  effect: Effect.gen(function* () {
    const { passwordHashConcurrency, passwordHashQueue, passwordHashCost } = yield* FoundationConfig
    const cost: Cost = { N: 2 ** passwordHashCost, r: R, p: P }
    if (passwordHashCost < DEFAULT_PASSWORD_HASH_COST)
      yield* Effect.logWarning(
        `PASSWORD_HASH_COST is ${passwordHashCost}, below the default ${DEFAULT_PASSWORD_HASH_COST}: new password hashes are cheaper to guess should the database leak (a setting for test runs)`
      )
    // scrypt runs on libuv's thread pool (4 threads) and keeps a core busy for ~50 ms: left
    // unbounded, a flood of sign-ins takes every core from the event loop and so from every other
    // request, the catalog's included (issue 14). At most `passwordHashConcurrency` run at once;
    // `passwordHashQueue` more may wait, and any beyond those are answered 503 at once rather than
    // waiting without bound.
    const turns = yield* Effect.makeSemaphore(passwordHashConcurrency)
    let admitted = 0
    const bounded = <A>(work: Effect.Effect<A>): Effect.Effect<A, PasswordChecksBusy> =>
      Effect.suspend(() => {
        if (admitted >= passwordHashConcurrency + passwordHashQueue)
          return Effect.fail(new PasswordChecksBusy())
        admitted++
        return turns
          .withPermits(1)(
            // A started hash cannot be stopped: its turn is held until it ends, even if the caller left.
            Effect.uninterruptible(work)
          )
          .pipe(
            Effect.ensuring(
              Effect.sync(() => {
                admitted--
              })
            )
          )
      })

    return {
      /** `scrypt$N$r$p$salt$hash` (salt and hash in base64url). */
      hash: (password: string) =>
        bounded(
          Effect.gen(function* () {
            const salt = randomBytes(16)
            const key = yield* derive(password, salt, cost)
            return `${costPrefix(cost)}$${salt.toString("base64url")}$${key.toString("base64url")}`
          }).pipe(Effect.orDie)
        ),

      /** False for a wrong password and for a stored value this code cannot read. */
      verify: (password: string, stored: string) =>
        bounded(
          Effect.gen(function* () {
            const [scheme, n, r, p, salt, hash] = stored.split("$")
            if (scheme !== "scrypt" || salt === undefined || hash === undefined) return false
            const expected = Buffer.from(hash, "base64url")
            const key = yield* derive(password, Buffer.from(salt, "base64url"), {
              N: Number(n),
              r: Number(r),
              p: Number(p)
            })
            return key.length === expected.length && timingSafeEqual(key, expected)
          }).pipe(Effect.orDie)
        ),

      /**
       * Whether a stored hash was made at a lower cost than new hashes get (PASSWORD_HASH_COST was
       * raised since): sign-in then hashes the password it just checked again. A hash at a higher
       * cost is kept as it is: lowering the setting never weakens a stored hash.
       */
      needsUpgrade: (stored: string) => {
        const [scheme, n, r, p] = stored.split("$")
        return scheme === "scrypt" && (Number(n) < cost.N || Number(r) < cost.r || Number(p) < cost.p)
      },

      /**
       * A hash of a password nobody knows, at the cost new hashes get: sign-in verifies against it
       * when the email is unknown, so an unknown email costs the same time as a wrong password and
       * timing reveals no accounts.
       */
      decoyHash: `${costPrefix(cost)}$${"A".repeat(22)}$${"A".repeat(43)}`
    }
  })
}) {}

/**
 * Common and breached passwords: the password list of zxcvbn-ts (`@zxcvbn-ts/language-common`,
 * 49,233 passwords ranked by how often they appear in breach corpora), kept to those long enough to
 * be accepted at all (8 characters or more) and compared without regard to case.
 */
const commonPasswords: ReadonlySet<string> = new Set(
  dictionary["passwords-common"]
    .filter((password) => password.length >= 8)
    .map((password) => password.toLowerCase())
)

const fold = (text: string) => text.normalize("NFKC").toLowerCase()

/**
 * Why a new password would be easy to guess, or undefined when it is not (NIST SP 800-63B
 * §3.1.1.2: refuse values from breach corpora and dictionaries, repetitive characters and words of
 * the context, such as the account's own email). Length is the schema's business.
 */
export const passwordWeakness = (password: string, email: string): string | undefined => {
  const folded = fold(password)
  if (/^\s*$/u.test(folded)) return "This password is only whitespace; choose another."
  if (new Set(folded).size === 1) return "This password repeats one character; choose another."
  if (commonPasswords.has(folded)) return "This password is in a list of common passwords; choose another."
  if (folded === fold(email)) return "This password is your email address; choose another."
  return undefined
}
