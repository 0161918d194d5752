// Settings of the catalog, read from the environment once at start-up.
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import type * as Option from "effect/Option"
import type * as Redacted from "effect/Redacted"
import { hostConfig, originConfig } from "../http/PublicOrigin.js"
import { defaultRateLimitPerMinute } from "./CatalogLimits.js"

export interface CatalogSettings {
  /** The snapshot folder the build step wrote. */
  readonly directory: string
  /** Requests a minute per client address before 429. */
  readonly rateLimitPerMinute: number
  /** Key for signing cursors; by default derived from the snapshot id, so every instance agrees. */
  readonly cursorSecret: Option.Option<Redacted.Redacted>
  /** Origins allowed to call /mcp from a browser, besides requests without an Origin. */
  readonly mcpAllowedOrigins: ReadonlyArray<string>
  /** Host names allowed in the Host header of /mcp requests, besides loopback names, HOST and PUBLIC_ORIGIN's. */
  readonly mcpAllowedHosts: ReadonlyArray<string>
  /**
   * The address the server listens on (HOST), read here too because features do not import the
   * server's settings: the MCP Host rule allows it.
   */
  readonly listenHost: string
  /** Answer hot reads before the Effect router (off only to compare the two paths). */
  readonly fastPath: boolean
  /**
   * The origin this instance serves (PUBLIC_ORIGIN, by default `http://HOST:PORT`): every link the
   * catalog answers starts with it. The snapshot itself names no origin, so one folder serves many.
   */
  readonly publicOrigin: string
}

export const catalogSettingsConfig: Config.Config<CatalogSettings> = Config.all({
  directory: Config.string("CATALOG_DIR").pipe(Config.withDefault("dist/catalog")),
  rateLimitPerMinute: Config.integer("CATALOG_RATE_LIMIT").pipe(
    Config.validate({ message: "CATALOG_RATE_LIMIT must be a positive integer", validation: (n) => n > 0 }),
    Config.withDefault(defaultRateLimitPerMinute)
  ),
  cursorSecret: Config.option(Config.redacted("CATALOG_CURSOR_SECRET")),
  mcpAllowedOrigins: Config.array(Config.string(), "MCP_ALLOWED_ORIGINS").pipe(Config.withDefault([])),
  mcpAllowedHosts: Config.array(Config.string(), "MCP_ALLOWED_HOSTS").pipe(Config.withDefault([])),
  listenHost: hostConfig,
  fastPath: Config.boolean("CATALOG_FAST_PATH").pipe(Config.withDefault(true)),
  publicOrigin: originConfig
})

export class CatalogConfig extends Context.Tag("CatalogConfig")<CatalogConfig, CatalogSettings>() {
  static readonly layer = Layer.effect(CatalogConfig, catalogSettingsConfig)
}
