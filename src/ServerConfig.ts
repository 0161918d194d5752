// Process-wide settings of the HTTP server, read from the environment once at start-up.
import * as Config from "effect/Config"
import type * as ConfigError from "effect/ConfigError"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

export interface ServerSettings {
  readonly host: string
  /** 0 asks the operating system for a free port (tests). */
  readonly port: number
  readonly catalogEnabled: boolean
  readonly foundationEnabled: boolean
  /** Per-request tracing spans cost about 20 µs; they are created only when asked for. */
  readonly tracing: boolean
  /** Largest request body read by any JSON endpoint, in bytes. */
  readonly maxBodyBytes: number
  /** One line per request on stdout. */
  readonly accessLog: boolean
  /**
   * The origin people and clients use to reach the service (PUBLIC_ORIGIN): session writes must carry
   * it, mailed links start with it, and it is the OAuth issuer and the base of every protected
   * resource's identifier.
   */
  readonly publicOrigin: string
}

/** PUBLIC_ORIGIN: an origin (scheme, host, optional port, nothing else). */
const originConfig = (name: string) =>
  Config.string(name).pipe(
    Config.validate({
      message: `${name} must be an origin such as https://example.com (scheme, host, optional port, no path)`,
      validation: (value) => {
        try {
          const url = new URL(value)
          return (url.protocol === "http:" || url.protocol === "https:") && url.origin === value
        } catch {
          return false
        }
      }
    })
  )

// Config.port refuses 0, which tests use to get a free port.
const portConfig = Config.integer("PORT").pipe(
  Config.validate({ message: "PORT must be between 0 and 65535", validation: (n) => n >= 0 && n <= 65535 }),
  Config.withDefault(8080)
)

const settingsConfig = (port: number): Config.Config<ServerSettings> =>
  Config.all({
    host: Config.string("HOST").pipe(Config.withDefault("127.0.0.1")),
    port: Config.succeed(port),
    catalogEnabled: Config.boolean("CATALOG_ENABLED").pipe(Config.withDefault(true)),
    foundationEnabled: Config.boolean("FOUNDATION_ENABLED").pipe(Config.withDefault(true)),
    tracing: Config.boolean("HTTP_TRACING").pipe(Config.withDefault(false)),
    maxBodyBytes: Config.integer("MAX_BODY_BYTES").pipe(
      Config.validate({
        message: "MAX_BODY_BYTES must be between 1024 and 104857600",
        validation: (n) => n >= 1024 && n <= 104_857_600
      }),
      Config.withDefault(1_048_576)
    ),
    accessLog: Config.boolean("ACCESS_LOG").pipe(Config.withDefault(false)),
    publicOrigin: originConfig("PUBLIC_ORIGIN").pipe(Config.withDefault(`http://127.0.0.1:${port}`))
  })

/** The settings, read once; PUBLIC_ORIGIN defaults to loopback on PORT. */
export const readServerSettings: Effect.Effect<ServerSettings, ConfigError.ConfigError> = Effect.flatMap(
  portConfig,
  settingsConfig
)

export class ServerConfig extends Context.Tag("ServerConfig")<ServerConfig, ServerSettings>() {
  static readonly layer = Layer.effect(ServerConfig, readServerSettings)
}
