import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"

export default defineConfig({
  // The client package is built from this source (packages/catalog-client), the snapshot reader from
  // packages/snapshot-reader/src; tests import them by the packages' names, as a consumer does,
  // without building them first (tsconfig.json maps them the same way).
  resolve: {
    alias: {
      "@podcast-platform/catalog-client": fileURLToPath(
        new URL("./src/catalog/rpc/client.ts", import.meta.url)
      ),
      "@podcast-platform/snapshot-reader": fileURLToPath(
        new URL("./packages/snapshot-reader/src/index.ts", import.meta.url)
      )
    }
  },
  test: {
    include: ["test/**/*.test.ts"],
    // The run's temporary root, an initialised embedded database to copy (PgliteTemplate.ts), a
    // PostgreSQL of its own when none is given (OwnPostgres.ts) and a migrated database on it to copy
    // (PostgresTemplate.ts).
    globalSetup: [
      "test/support/TempRoot.ts",
      "test/support/PgliteTemplate.ts",
      "test/support/OwnPostgres.ts",
      "test/support/PostgresTemplate.ts"
    ],
    // @effect/vitest's methods unbound from the previous file's layer (FreshEffectMethods.ts says why).
    setupFiles: ["test/support/FreshEffectMethods.ts"],
    // The skip report first, so its lines come just before the summary that counts the skips.
    reporters: ["./test/support/SkipReport.ts", "default"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Test files start real servers and databases; two workers match the two cores we run on. A worker
    // keeps its modules from one test file to the next (isolate: false): importing the service afresh
    // for each of ~120 files was a third of the run (collect 476 s of 950, against 26 s). So a file
    // does not assume a process of its own: what is process-wide (Effect's metric registry, the test
    // servers' captured log) it reads as a change since it started.
    pool: "forks",
    poolOptions: { forks: { maxForks: 2, minForks: 1, isolate: false } }
  }
})
