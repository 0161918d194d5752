// Settings of the foundation service, read from the environment once at start-up.
import { readFileSync } from "node:fs"
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type * as Redacted from "effect/Redacted"

export interface FoundationSettings {
  /** A real PostgreSQL when set; otherwise the embedded PGlite in `dataDir`. */
  readonly databaseUrl: Option.Option<Redacted.Redacted>
  readonly dataDir: string
  /** Pool size for a real PostgreSQL (the embedded one always uses one connection). */
  readonly databasePoolSize: number
  readonly databaseConnectTimeout: Duration.Duration
  /** Server-side `statement_timeout`: a query running longer is cancelled and answered 503. */
  readonly databaseStatementTimeout: Duration.Duration
  /** The origin browsers use to reach the service: session writes must carry it; links use it. */
  readonly publicOrigin: string
  readonly sessionTtl: Duration.Duration
  readonly emailTokenTtl: Duration.Duration
  readonly invitationTtl: Duration.Duration
  /** Requests a minute allowed to one credential (session or token). */
  readonly credentialRateLimit: number
  /** Sign-in and sign-up attempts a minute allowed per client address and email. */
  readonly authRateLimit: number
  /** How often the outbox worker looks for messages written by other instances. */
  readonly outboxPollInterval: Duration.Duration
  /** The wait after a first failed delivery; it doubles with each further failure, up to an hour. */
  readonly outboxRetryBase: Duration.Duration
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
}

const positive = (name: string, fallback: number, max: number) =>
  Config.integer(name).pipe(
    Config.validate({
      message: `${name} must be an integer between 1 and ${max}`,
      validation: (n) => n >= 1 && n <= max
    }),
    Config.withDefault(fallback)
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

/** Reads the settings; the public origin is the process's (ServerConfig reads PUBLIC_ORIGIN). */
export const foundationSettingsConfig = (publicOrigin: string): Config.Config<FoundationSettings> =>
  Config.all({
    databaseUrl: Config.option(Config.redacted("DATABASE_URL")),
    dataDir: Config.string("DATA_DIR").pipe(Config.withDefault("./data")),
    databasePoolSize: positive("DATABASE_POOL_SIZE", 10, 1000),
    databaseConnectTimeout: positive("DATABASE_CONNECT_TIMEOUT_MS", 2000, 600_000).pipe(
      Config.map(Duration.millis)
    ),
    databaseStatementTimeout: positive("DATABASE_STATEMENT_TIMEOUT_MS", 5000, 3_600_000).pipe(
      Config.map(Duration.millis)
    ),
    publicOrigin: Config.succeed(publicOrigin),
    sessionTtl: positive("SESSION_TTL_DAYS", 30, 3650).pipe(Config.map(Duration.days)),
    emailTokenTtl: positive("EMAIL_TOKEN_TTL_HOURS", 48, 24 * 365).pipe(Config.map(Duration.hours)),
    invitationTtl: positive("INVITATION_TTL_DAYS", 7, 365).pipe(Config.map(Duration.days)),
    credentialRateLimit: positive("CREDENTIAL_RATE_LIMIT", 600, 1_000_000),
    authRateLimit: positive("AUTH_RATE_LIMIT", 10, 1_000_000),
    outboxPollInterval: positive("OUTBOX_POLL_MS", 1000, 3_600_000).pipe(Config.map(Duration.millis)),
    outboxRetryBase: positive("OUTBOX_RETRY_BASE_MS", 5000, 3_600_000).pipe(Config.map(Duration.millis)),
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
    oauthRegistrationRateLimit: positive("OAUTH_REGISTRATION_RATE_LIMIT", 10, 1_000_000)
  })

export class FoundationConfig extends Context.Tag("FoundationConfig")<
  FoundationConfig,
  FoundationSettings
>() {
  static readonly layer = (publicOrigin: string) =>
    Layer.effect(FoundationConfig, foundationSettingsConfig(publicOrigin))
}
