// axe-core in a page or one of its frames, as every browser test checks it: no serious or critical
// violation. It needs script in the document's world, so only where JavaScript runs; Playwright's
// evaluate reaches that world whatever the document's content security policy says.
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { expect } from "@effect/vitest"
import * as Effect from "effect/Effect"
import type { Frame, Page } from "playwright-core"

/**
 * axe-core's minified build (the package's own, the same version and rules as its `source`, which is
 * the unminified build at 1.5 MB): injected into every checked document, it is sent and parsed in
 * less than half the time.
 */
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8")

interface AxeViolation {
  readonly id: string
  readonly impact: string | null
  readonly help: string
  readonly nodes: ReadonlyArray<{ readonly target: ReadonlyArray<unknown> }>
}

/** axe-core on the document as it is: no serious or critical violation, each named with its elements. */
export const expectAccessible = (document: Page | Frame, label: string) =>
  Effect.promise(async () => {
    if (!(await document.evaluate("typeof window.axe === 'object'"))) await document.evaluate(axeSource)
    const violations = (await document.evaluate(
      "window.axe.run(document, { resultTypes: ['violations'] }).then((result) => result.violations)"
    )) as ReadonlyArray<AxeViolation>
    const serious = violations
      .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
      .map(
        (violation) =>
          `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes
            .map((node) => JSON.stringify(node.target))
            .join(", ")}`
      )
    expect(serious, `axe on ${label} (${document.url()})`).toEqual([])
  })
