// axe-core in a page or one of its frames, as every browser test checks it: no serious or critical
// violation. It needs script in the document's world, so only where JavaScript runs; Playwright's
// evaluate reaches that world whatever the document's content security policy says.
import { expect } from "@effect/vitest"
import axe from "axe-core"
import * as Effect from "effect/Effect"
import type { Frame, Page } from "playwright-core"

interface AxeViolation {
  readonly id: string
  readonly impact: string | null
  readonly help: string
  readonly nodes: ReadonlyArray<{ readonly target: ReadonlyArray<unknown> }>
}

/** axe-core on the document as it is: no serious or critical violation, each named with its elements. */
export const expectAccessible = (document: Page | Frame, label: string) =>
  Effect.promise(async () => {
    if (!(await document.evaluate("typeof window.axe === 'object'"))) await document.evaluate(axe.source)
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
