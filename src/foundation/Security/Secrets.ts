// Random identifiers and bearer secrets, and the one-way hash under which secrets are stored.
// Secrets have at least 256 bits of entropy, so a fast hash (SHA-256) is enough: guessing is hopeless
// and a leaked table reveals no usable token.
import { createHash, randomBytes } from "node:crypto"

/** A URL-safe random string carrying `bytes` bytes of entropy. */
export const randomSecret = (bytes = 32): string => randomBytes(bytes).toString("base64url")

/** The stored form of a secret (hex SHA-256). */
export const hashSecret = (secret: string): string => createHash("sha256").update(secret).digest("hex")

/** A new record identifier, prefixed by its kind (`usr_…`, `org_…`) so logs and support can tell them apart. */
export const newId = (prefix: string): string => `${prefix}_${randomBytes(16).toString("base64url")}`
