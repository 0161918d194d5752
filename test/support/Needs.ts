// Groups of tests that need something this machine may lack (PostgreSQL, Chromium, nginx, the corpus,
// a tool): each support module that looks for a need says why it is missing, or undefined when it is
// there; `describeNeeding` skips a group with the first missing need as its reason and records that
// reason on the group, for test/support/SkipReport.ts to print. A single test's body is wrapped in
// `whenMet`, which skips it with the reason as the skip's note.
import { describe } from "@effect/vitest"
import type { TestContext } from "vitest"
import { getCurrentSuite } from "vitest/suite"

declare module "@vitest/runner" {
  interface TaskMeta {
    /** Why the group was skipped (set by describeNeeding). */
    skipReason?: string
  }
}

const firstMissing = (missing: ReadonlyArray<string | undefined>): string | undefined =>
  missing.find((reason) => reason !== undefined)

/** `describe`, skipped with the reason of the first missing need (undefined entries are met). */
export const describeNeeding =
  (...missing: ReadonlyArray<string | undefined>) =>
  (name: string, body: () => void): void => {
    const reason = firstMissing(missing)
    describe.skipIf(reason !== undefined)(name, () => {
      const group = getCurrentSuite().suite
      if (reason !== undefined && group !== undefined) group.meta.skipReason = reason
      body()
    })
  }

/**
 * A test's body that skips the test, with the first missing need as the skip's note, when one is
 * missing: `it.effect("…", whenMet([reason], () => …))`.
 */
export const whenMet =
  <A>(missing: ReadonlyArray<string | undefined>, body: (context: TestContext) => A) =>
  (context: TestContext): A => {
    const reason = firstMissing(missing)
    if (reason !== undefined) {
      // Also on the test's meta: @effect/vitest runs the body inside an Effect, which loses the note.
      context.task.meta.skipReason = reason
      context.skip(reason)
    }
    return body(context)
  }
