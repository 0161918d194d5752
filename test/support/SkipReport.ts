// A vitest reporter that says why tests were skipped: at the end of a run, one line per skipped group
// (a skipped describe, or a skipped test outside one) with what it needs, as the support modules that
// decide the skips word it: PostgreSQL (Backends.ts), Chromium (Chromium.ts), the corpus (Corpus.ts).
// A file decides its skips with those modules' values, so its folder says which needs apply.
import { relative } from "node:path"
import type { Reporter, TestCase, TestModule, TestSuite, Vitest } from "vitest/node"
import { pgCtlUnavailable, postgresUnavailable } from "../foundation/support/Backends.js"
import { browserUnavailable } from "./Chromium.js"
import { corpusUnavailable } from "./Corpus.js"

/** The needs of the tests in a folder, in the order a skip there is attributed to them. */
const needs: ReadonlyArray<{ readonly folder: string; readonly missing: ReadonlyArray<string | undefined> }> =
  [
    { folder: "test/foundation/", missing: [postgresUnavailable, pgCtlUnavailable] },
    { folder: "test/pages/", missing: [browserUnavailable] },
    { folder: "test/corpus/", missing: [corpusUnavailable] }
  ]

const reasonFor = (file: string): string =>
  needs
    .filter((need) => file.startsWith(need.folder))
    .flatMap((need) => need.missing)
    .find((missing) => missing !== undefined) ?? "no need recorded for this folder (see the file's skipIf)"

/** The outermost skipped entries of a module or suite: a skipped suite counts once, with its tests. */
const skippedGroups = (parent: TestModule | TestSuite): Array<TestSuite | TestCase> =>
  parent.children
    .array()
    .flatMap((child) =>
      child.options.mode === "skip" ? [child] : child.type === "suite" ? skippedGroups(child) : []
    )

export default class SkipReport implements Reporter {
  private vitest: Vitest | undefined

  onInit(vitest: Vitest): void {
    this.vitest = vitest
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const vitest = this.vitest
    // A run narrowed by name skips everything else on purpose: nothing to explain.
    if (vitest === undefined || vitest.config.testNamePattern !== undefined) return
    const lines: Array<string> = []
    for (const module of modules) {
      const file = relative(vitest.config.root, module.moduleId)
      for (const group of skippedGroups(module)) {
        const tests = group.type === "suite" ? [...group.children.allTests()].length : 1
        lines.push(
          `  ↓ ${file} › ${group.name} (${tests} ${tests === 1 ? "test" : "tests"}): needs ${reasonFor(file)}`
        )
      }
    }
    if (lines.length > 0) vitest.logger.log(["", " Skipped, and what each group needs:", ...lines].join("\n"))
  }
}
