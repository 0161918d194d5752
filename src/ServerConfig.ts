// Process-wide settings of the HTTP server, read from the environment once at start-up.
import * as Config from "effect/Config"
import type * as ConfigError from "effect/ConfigError"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { hostConfig, originConfig, portConfig } from "./http/PublicOrigin.js"

export interface ServerSettings {
  readonly host: string
  /** 0 asks the operating system for a free port (tests). */
  readonly port: number
  readonly catalogEnabled: boolean
  readonly foundationEnabled: boolean
  /** Largest request body read by any JSON endpoint, in bytes. */
  readonly maxBodyBytes: number
  /** One line per request on stdout. */
  readonly accessLog: boolean
  /**
   * Take the client's address from X-Forwarded-For (behind a proxy you run): one setting for the
   * whole process, so both features' rate limits count clients alike.
   */
  readonly trustProxy: boolean
  /** Longest wait for a request's headers (408 after it). */
  readonly headersTimeoutMs: number
  /** Longest wait for a whole request, headers and body (408 after it). */
  readonly requestTimeoutMs: number
  /** Longest time a handler may take to produce its response (503 after it). */
  readonly handlerTimeoutMs: number
  /** Longest time a streamed response (server-sent events) may last. */
  readonly streamTimeoutMs: number
  /** After SIGTERM: how long readiness fails while requests are still served, before the listener closes. */
  readonly drainDelayMs: number
  /** Once the listener closes: how long requests received may take to finish before connections are cut. */
  readonly shutdownGraceMs: number
  /**
   * The origin people and clients use to reach the service (PUBLIC_ORIGIN, by default
   * `http://HOST:PORT`): session writes must carry it, mailed links and every link the catalog
   * answers start with it, and it is the OAuth issuer and the base of every protected resource's
   * identifier.
   */
  readonly publicOrigin: string
}

const milliseconds = (name: string, fallback: number, min: number, max: number) =>
  Config.integer(name).pipe(
    Config.validate({
      message: `${name} must be an integer between ${min} and ${max} (milliseconds)`,
      validation: (n) => n >= min && n <= max
    }),
    Config.withDefault(fallback)
  )

const settingsConfig = (host: string, port: number): Config.Config<ServerSettings> =>
  Config.all({
    host: Config.succeed(host),
    port: Config.succeed(port),
    catalogEnabled: Config.boolean("CATALOG_ENABLED").pipe(Config.withDefault(true)),
    foundationEnabled: Config.boolean("FOUNDATION_ENABLED").pipe(Config.withDefault(true)),
    maxBodyBytes: Config.integer("MAX_BODY_BYTES").pipe(
      Config.validate({
        message: "MAX_BODY_BYTES must be between 1024 and 104857600",
        validation: (n) => n >= 1024 && n <= 104_857_600
      }),
      Config.withDefault(1_048_576)
    ),
    accessLog: Config.boolean("ACCESS_LOG").pipe(Config.withDefault(false)),
    trustProxy: Config.boolean("TRUST_PROXY").pipe(Config.withDefault(false)),
    headersTimeoutMs: milliseconds("HTTP_HEADERS_TIMEOUT_MS", 10_000, 100, 600_000),
    requestTimeoutMs: milliseconds("HTTP_REQUEST_TIMEOUT_MS", 30_000, 100, 3_600_000),
    handlerTimeoutMs: milliseconds("HTTP_HANDLER_TIMEOUT_MS", 15_000, 100, 3_600_000),
    streamTimeoutMs: milliseconds("HTTP_STREAM_TIMEOUT_MS", 300_000, 100, 86_400_000),
    drainDelayMs: milliseconds("SHUTDOWN_DRAIN_DELAY_MS", 5_000, 0, 600_000),
    shutdownGraceMs: milliseconds("SHUTDOWN_GRACE_MS", 20_000, 0, 600_000),
    publicOrigin: originConfig
  }).pipe(
    // Node refuses a headers timeout longer than the whole request's.
    Config.validate({
      message: "HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS",
      validation: (settings) => settings.headersTimeoutMs <= settings.requestTimeoutMs
    })
  )

/** The settings, read once; PUBLIC_ORIGIN defaults to `http://HOST:PORT`. */
export const readServerSettings: Effect.Effect<ServerSettings, ConfigError.ConfigError> = Effect.flatMap(
  Config.all([hostConfig, portConfig]),
  ([host, port]) => settingsConfig(host, port)
)

export class ServerConfig extends Context.Tag("ServerConfig")<ServerConfig, ServerSettings>() {
  static readonly layer = Layer.effect(ServerConfig, readServerSettings)
}
