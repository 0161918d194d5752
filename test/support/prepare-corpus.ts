// The corpus snapshot the suite's corpus test needs, built ahead (CorpusSnapshot.ts keeps it under
// .tmp/ for every run whose inputs are the same): .ci/run starts this beside the type-check and the
// lint, which leave a core free, so the suite does not spend its first minute and a half on it. The
// build is the one the test itself would run, from the same module; without the corpus it says why
// and does nothing (the test then skips with that reason).
import * as Effect from "effect/Effect"
import { corpusUnavailable } from "./Corpus.js"
import { corpusSnapshot } from "./CorpusSnapshot.js"

if (corpusUnavailable !== undefined) console.log(`No corpus snapshot to prepare: ${corpusUnavailable}`)
else {
  const started = Date.now()
  const { out, reused } = await Effect.runPromise(corpusSnapshot)
  const seconds = ((Date.now() - started) / 1000).toFixed(1)
  console.log(
    `The corpus snapshot is ${reused ? "kept from an earlier run" : `built in ${seconds} s`}: ${out}`
  )
}
