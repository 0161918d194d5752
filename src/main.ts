// Entry point: runs the service until it is told to stop.
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { ServerAddress } from "./http/NodeServer.js"
import { ServerLive } from "./Server.js"

const announce = Layer.effectDiscard(
  Effect.flatMap(ServerAddress, (address) => Effect.logInfo(`Listening on ${address.url}`))
)

announce.pipe(Layer.provide(ServerLive), Layer.launch, NodeRuntime.runMain)
