// A vitest reporter that says why tests were skipped: at the end of a run, one line per skipped group
// (a skipped describe, or a skipped test outside one) with the reason the group gave when it skipped
// (test/support/Needs.ts records it), and the share of the run that was skipped.
import { relative } from "node:path"
import type { Reporter, TestCase, TestModule, TestSuite, Vitest } from "vitest/node"

/** Declared skipped, or skipped while running with a note (`whenMet`); not the tests a failed hook left unrun. */
const isSkipped = (child: TestSuite | TestCase): boolean => {
  if (child.options.mode === "skip") return true
  if (child.type === "suite") return false
  const result = child.result()
  return result.state === "skipped" && (result.note ?? child.meta().skipReason) !== undefined
}

/** The outermost skipped entries of a module or suite: a skipped suite counts once, with its tests. */
const skippedGroups = (parent: TestModule | TestSuite): Array<TestSuite | TestCase> =>
  parent.children
    .array()
    .flatMap((child) => (isSkipped(child) ? [child] : child.type === "suite" ? skippedGroups(child) : []))

const reasonOf = (group: TestSuite | TestCase): string | undefined => {
  if (group.type === "suite") return group.meta().skipReason
  const result = group.result()
  return (result.state === "skipped" ? result.note : undefined) ?? group.meta().skipReason
}

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
    let skipped = 0
    let all = 0
    for (const module of modules) {
      all += [...module.children.allTests()].length
      const file = relative(vitest.config.root, module.moduleId)
      for (const group of skippedGroups(module)) {
        const tests = group.type === "suite" ? [...group.children.allTests()].length : 1
        skipped += tests
        const reason =
          reasonOf(group) ?? "no reason given (declare the group with describeNeeding, test/support/Needs.ts)"
        lines.push(
          `  ↓ ${file} › ${group.name} (${tests} ${tests === 1 ? "test" : "tests"}): needs ${reason}`
        )
      }
    }
    if (lines.length === 0) return
    const share = ((100 * skipped) / Math.max(all, 1)).toFixed(1)
    vitest.logger.log(
      ["", ` Skipped ${skipped} of ${all} tests (${share} %), and what each group needs:`, ...lines].join(
        "\n"
      )
    )
  }
}
