// Runs the service's own migrations (the code a server runs at start) on the database `settings`
// name (DATA_DIR or DATABASE_URL), then closes it: the global set-ups make migrated templates with it.
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { layerDatabase } from "../../src/foundation/Database/Database.js"
import { FoundationConfig } from "../../src/foundation/FoundationConfig.js"

export const migrate = (settings: Record<string, string>): Promise<void> =>
  Effect.runPromise(
    Effect.scoped(
      Layer.build(
        layerDatabase.pipe(
          Layer.provide(FoundationConfig.layer("http://127.0.0.1:0")),
          Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(settings)))))
        )
      )
    )
  ).then(() => undefined)
