// Process-wide settings of the HTTP server, read from the environment once at start-up.
import * as Config from "effect/Config"
import * as Context from "effect/Context"
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
   * Take the client's address from X-Forwarded-For (behind a proxy you run): one setting for the
   * whole process, so both features' rate limits count clients alike.
   */
  readonly trustProxy: boolean
}

export const serverSettingsConfig: Config.Config<ServerSettings> = Config.all({
  host: Config.string("HOST").pipe(Config.withDefault("127.0.0.1")),
  // Config.port refuses 0, which tests use to get a free port.
  port: Config.integer("PORT").pipe(
    Config.validate({ message: "PORT must be between 0 and 65535", validation: (n) => n >= 0 && n <= 65535 }),
    Config.withDefault(8080)
  ),
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
  trustProxy: Config.boolean("TRUST_PROXY").pipe(Config.withDefault(false))
})

export class ServerConfig extends Context.Tag("ServerConfig")<ServerConfig, ServerSettings>() {
  static readonly layer = Layer.effect(ServerConfig, serverSettingsConfig)
}
