import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"

export default defineConfig({
  // The client package is built from this source (packages/catalog-client); tests import it by the
  // package's name, as a consumer does, without building it first (tsconfig.json maps it the same way).
  resolve: {
    alias: {
      "@podcast-platform/catalog-client": fileURLToPath(
        new URL("./src/catalog/rpc/client.ts", import.meta.url)
      )
    }
  },
  test: {
    include: ["test/**/*.test.ts"],
    // The run's temporary root, an initialised embedded database to copy (PgliteTemplate.ts), and a
    // PostgreSQL of its own when none is given (OwnPostgres.ts).
    globalSetup: [
      "test/support/TempRoot.ts",
      "test/support/PgliteTemplate.ts",
      "test/support/OwnPostgres.ts"
    ],
    // The skip report first, so its lines come just before the summary that counts the skips.
    reporters: ["./test/support/SkipReport.ts", "default"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Test files start real servers and databases; two workers match the two cores we run on.
    pool: "forks",
    poolOptions: { forks: { maxForks: 2, minForks: 1 } }
  }
})
