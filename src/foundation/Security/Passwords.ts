// Password hashing with scrypt (node:crypto): a random salt per password, and the cost parameters
// stored with the hash so they can be raised later without breaking existing accounts.
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto"
import * as Effect from "effect/Effect"

const KEY_LENGTH = 32
/** N = 2^15 costs about 50 ms and 32 MiB per hash on this class of machine. */
const defaults: Cost = { N: 32768, r: 8, p: 1 }

interface Cost {
  readonly N: number
  readonly r: number
  readonly p: number
}

const derive = (password: string, salt: Buffer, cost: Cost) =>
  Effect.async<Buffer, Error>((resume) => {
    // scrypt needs 128·N·r bytes; the default ceiling (32 MiB) is exactly that at N = 2^15, r = 8.
    const options = { ...cost, maxmem: 256 * cost.N * cost.r }
    scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, options, (error, key) =>
      resume(error ? Effect.fail(error) : Effect.succeed(key))
    )
  })

export class Passwords extends Effect.Service<Passwords>()("Passwords", {
  succeed: {
    /** `scrypt$N$r$p$salt$hash` (salt and hash in base64url). */
    hash: (password: string) =>
      Effect.gen(function* () {
        const salt = randomBytes(16)
        const key = yield* derive(password, salt, defaults)
        return `scrypt$${defaults.N}$${defaults.r}$${defaults.p}$${salt.toString("base64url")}$${key.toString("base64url")}`
      }).pipe(Effect.orDie),

    /** False for a wrong password and for a stored value this code cannot read. */
    verify: (password: string, stored: string) =>
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
  }
}) {}

/**
 * A hash of a password nobody knows: sign-in verifies against it when the email is unknown, so an
 * unknown email costs the same time as a wrong password and timing reveals no accounts.
 */
export const decoyHash = "scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
