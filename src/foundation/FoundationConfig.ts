// Settings of the foundation service, read from the environment once at start-up.
import { readFileSync } from "node:fs"
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"

export interface FoundationSettings {
  /** A real PostgreSQL when set; otherwise the embedded PGlite in `dataDir`. */
  readonly databaseUrl: Option.Option<Redacted.Redacted>
  readonly dataDir: string
  /** The embedded database's buffer cache (PostgreSQL's `shared_buffers`), e.g. `128MB`. */
  readonly embeddedSharedBuffers: string
  /** Pool size for a real PostgreSQL (the embedded one always uses one connection). */
  readonly databasePoolSize: number
  readonly databaseConnectTimeout: Duration.Duration
  /** Server-side `statement_timeout`: a query running longer is cancelled and answered 503. */
  readonly databaseStatementTimeout: Duration.Duration
  /** The origin browsers use to reach the service: session writes must carry it; links use it. */
  readonly publicOrigin: string
  readonly sessionTtl: Duration.Duration
  /** Live sessions an account may hold; signing in past it ends the least recently used. */
  readonly maxSessionsPerUser: number
  readonly emailTokenTtl: Duration.Duration
  readonly invitationTtl: Duration.Duration
  /** Requests a minute allowed to one credential (session or token). */
  readonly credentialRateLimit: number
  /** Sign-in and sign-up attempts a minute allowed per client address and email. */
  readonly authRateLimit: number
  /** Sign-in and sign-up attempts a minute allowed per client address, whatever the emails. */
  readonly authAddressRateLimit: number
  /** scrypt's cost for new password hashes, as log2 of N (15: N = 32768, ~50 ms and 32 MiB a hash). */
  readonly passwordHashCost: number
  /** Passwords hashed or checked at once (scrypt takes a core each while it runs). */
  readonly passwordHashConcurrency: number
  /** Password checks that may wait for a turn; beyond that they are answered 503 at once. */
  readonly passwordHashQueue: number
  /** Key that signs list cursors; none means the key kept in the database (shared by every instance). */
  readonly cursorSecret: Option.Option<Redacted.Redacted>
  /** How often the outbox worker looks for messages written by other instances. */
  readonly outboxPollInterval: Duration.Duration
  /** The wait after a first failed delivery; it doubles with each further failure, up to an hour. */
  readonly outboxRetryBase: Duration.Duration
  /** SMTP delivery of outbox messages (MAIL_URL, MAIL_FROM); none: messages are written to the log. */
  readonly mail: Option.Option<{ readonly url: Redacted.Redacted; readonly from: string }>
  /** Lifetime of OAuth access tokens (extensions §8: 1 hour unless configured). */
  readonly oauthAccessTokenTtl: Duration.Duration
  /** Lifetime of each OAuth refresh token (a new one comes with every refresh). */
  readonly oauthRefreshTokenTtl: Duration.Duration
  /**
   * Development and tests only: Client ID Metadata Documents may live on loopback and private
   * addresses, and on loopback over plain http.
   */
  readonly oauthAllowPrivateAddresses: boolean
  /** Extra certificate authorities (PEM) that fetching metadata documents trusts besides Node's. */
  readonly oauthExtraCa: string | undefined
  /** Token endpoint requests a minute per client (extensions §8: 60). */
  readonly oauthTokenRateLimit: number
  /** Dynamic client registrations a minute per client address (extensions §8: 10). */
  readonly oauthRegistrationRateLimit: number
  /** Client ID Metadata Documents fetched a minute because of one client address. */
  readonly oauthDocumentFetchRateLimit: number
}

/** scrypt at N = 2^15: about 50 ms and 32 MiB a hash. */
export const DEFAULT_PASSWORD_HASH_COST = 15

const positive = (name: string, fallback: number, max: number) =>
  Config.integer(name).pipe(
    Config.validate({
      message: `${name} must be an integer between 1 and ${max}`,
      validation: (n) => n >= 1 && n <= max
    }),
    Config.withDefault(fallback)
  )

const atLeast = (name: string, min: number, fallback: number, max: number) =>
  Config.integer(name).pipe(
    Config.validate({
      message: `${name} must be an integer between ${min} and ${max}`,
      validation: (n) => n >= min && n <= max
    }),
    Config.withDefault(fallback)
  )

/** A signing key of the operator's: long enough that it cannot be guessed. */
const secret = (name: string) =>
  Config.redacted(name).pipe(
    Config.validate({
      message: `${name} must be at least 32 characters`,
      validation: (value) => Redacted.value(value).length >= 32
    })
  )

/** MAIL_URL: an SMTP server's URL, whose password never appears in a message about it. */
const mailUrl = Config.redacted("MAIL_URL").pipe(
  Config.validate({
    message: "MAIL_URL must be an smtp:// or smtps:// URL, such as smtp://user:password@mail.example.com:587",
    validation: (url) => {
      try {
        const parsed = new URL(Redacted.value(url))
        return (parsed.protocol === "smtp:" || parsed.protocol === "smtps:") && parsed.hostname !== ""
      } catch {
        return false
      }
    }
  })
)

/** The PEM text of OAUTH_EXTRA_CA_FILE, read at start-up so a wrong path stops it with a clear message. */
const readCaFile = (path: string): Either.Either<string, ConfigError.ConfigError> => {
  try {
    const pem = readFileSync(path, "utf8")
    return pem.includes("-----BEGIN CERTIFICATE-----")
      ? Either.right(pem)
      : Either.left(ConfigError.InvalidData(["OAUTH_EXTRA_CA_FILE"], `${path} holds no PEM certificate`))
  } catch (cause) {
    return Either.left(
      ConfigError.InvalidData(["OAUTH_EXTRA_CA_FILE"], `${path} cannot be read: ${String(cause)}`)
    )
  }
}

const mailSettings = (publicOrigin: string) =>
  Config.all({
    url: Config.option(mailUrl),
    from: Config.option(Config.string("MAIL_FROM")),
    origin: Config.succeed(publicOrigin)
  }).pipe(
    Config.map(({ url, from, origin }) =>
      Option.map(url, (url) => ({
        url,
        from: Option.getOrElse(from, () => `no-reply@${new URL(origin).hostname}`)
      }))
    )
  )

/** Reads the settings; the public origin is the process's (ServerConfig reads PUBLIC_ORIGIN). */
export const foundationSettingsConfig = (publicOrigin: string): Config.Config<FoundationSettings> =>
  Config.all({
    databaseUrl: Config.option(Config.redacted("DATABASE_URL")),
    dataDir: Config.string("DATA_DIR").pipe(Config.withDefault("./data")),
    // PostgreSQL's own default; each start of the embedded database clears the whole cache, which is
    // most of a start's time (the tests, which start it hundreds of times, set 16MB).
    embeddedSharedBuffers: Config.string("EMBEDDED_SHARED_BUFFERS").pipe(
      Config.validate({
        message: "EMBEDDED_SHARED_BUFFERS must be a size such as 16MB or 1GB (kB, MB or GB)",
        validation: (size) => /^[1-9][0-9]{0,6}(kB|MB|GB)$/.test(size)
      }),
      Config.withDefault("128MB")
    ),
    databasePoolSize: positive("DATABASE_POOL_SIZE", 10, 1000),
    databaseConnectTimeout: positive("DATABASE_CONNECT_TIMEOUT_MS", 2000, 600_000).pipe(
      Config.map(Duration.millis)
    ),
    databaseStatementTimeout: positive("DATABASE_STATEMENT_TIMEOUT_MS", 5000, 3_600_000).pipe(
      Config.map(Duration.millis)
    ),
    publicOrigin: Config.succeed(publicOrigin),
    sessionTtl: positive("SESSION_TTL_DAYS", 30, 3650).pipe(Config.map(Duration.days)),
    maxSessionsPerUser: positive("MAX_SESSIONS_PER_USER", 100, 10_000),
    emailTokenTtl: positive("EMAIL_TOKEN_TTL_HOURS", 48, 24 * 365).pipe(Config.map(Duration.hours)),
    invitationTtl: positive("INVITATION_TTL_DAYS", 7, 365).pipe(Config.map(Duration.days)),
    credentialRateLimit: positive("CREDENTIAL_RATE_LIMIT", 600, 1_000_000),
    authRateLimit: positive("AUTH_RATE_LIMIT", 10, 1_000_000),
    authAddressRateLimit: positive("AUTH_ADDRESS_RATE_LIMIT", 30, 1_000_000),
    // Below 15 only for test runs, where thousands of sign-ups hash passwords nobody could want; a
    // hash keeps the cost it was made with, so changing the setting never locks anyone out.
    passwordHashCost: atLeast("PASSWORD_HASH_COST", 10, DEFAULT_PASSWORD_HASH_COST, 17),
    // One hash at a time leaves the other core of a two-core machine to everything else.
    passwordHashConcurrency: positive("PASSWORD_HASH_CONCURRENCY", 1, 64),
    passwordHashQueue: atLeast("PASSWORD_HASH_QUEUE", 0, 32, 100_000),
    cursorSecret: Config.option(secret("FOUNDATION_CURSOR_SECRET")),
    outboxPollInterval: positive("OUTBOX_POLL_MS", 1000, 3_600_000).pipe(Config.map(Duration.millis)),
    outboxRetryBase: positive("OUTBOX_RETRY_BASE_MS", 5000, 3_600_000).pipe(Config.map(Duration.millis)),
    mail: mailSettings(publicOrigin),
    oauthAccessTokenTtl: positive("OAUTH_ACCESS_TOKEN_TTL_SECONDS", 3600, 86_400).pipe(
      Config.map(Duration.seconds)
    ),
    oauthRefreshTokenTtl: positive("OAUTH_REFRESH_TOKEN_TTL_DAYS", 30, 365).pipe(Config.map(Duration.days)),
    oauthAllowPrivateAddresses: Config.boolean("OAUTH_ALLOW_PRIVATE_ADDRESSES").pipe(
      Config.withDefault(false)
    ),
    oauthExtraCa: Config.option(Config.string("OAUTH_EXTRA_CA_FILE").pipe(Config.mapOrFail(readCaFile))).pipe(
      Config.map(Option.getOrUndefined)
    ),
    oauthTokenRateLimit: positive("OAUTH_TOKEN_RATE_LIMIT", 60, 1_000_000),
    oauthRegistrationRateLimit: positive("OAUTH_REGISTRATION_RATE_LIMIT", 10, 1_000_000),
    oauthDocumentFetchRateLimit: positive("OAUTH_DOCUMENT_FETCH_RATE_LIMIT", 30, 1_000_000)
  })

export class FoundationConfig extends Context.Tag("FoundationConfig")<
  FoundationConfig,
  FoundationSettings
>() {
  static readonly layer = (publicOrigin: string) =>
    Layer.effect(FoundationConfig, foundationSettingsConfig(publicOrigin))
}
