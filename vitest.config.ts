import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/support/TempRoot.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Test files start real servers and databases; two workers match the two cores we run on.
    pool: "forks",
    poolOptions: { forks: { maxForks: 2, minForks: 1 } }
  }
})
