// Entry point: runs the service until it is told to stop. A failure to start (bad configuration, a
// missing or corrupt catalog snapshot, an unreachable database) is one clear line and exit code 1.
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as ConfigError from "effect/ConfigError"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { ServerAddress } from "./http/NodeServer.js"
import { ServerLive } from "./Server.js"

const announce = Layer.effectDiscard(
  Effect.flatMap(ServerAddress, (address) => Effect.logInfo(`Listening on ${address.url}`))
)

const describe = (error: unknown): string =>
  ConfigError.isConfigError(error)
    ? `configuration: ${String(error)}`
    : error instanceof Error
      ? error.message
      : String(error)

announce.pipe(
  Layer.provide(ServerLive),
  Layer.launch,
  Effect.catchAll((error) =>
    Effect.sync(() => {
      process.stderr.write(`Cannot start: ${describe(error)}\n`)
      process.exitCode = 1
    })
  ),
  NodeRuntime.runMain
)
