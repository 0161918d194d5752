// The corpus snapshot the suite's corpus test needs, built ahead (CorpusSnapshot.ts keeps it under
// .tmp/ for every run whose inputs are the same): .ci/run starts this as its checks begin, so that
// the build overlaps them and the first suite's start instead of taking a minute and a half inside
// it; the corpus test waits for it rather than building it again.
// The build is the one the test itself would run, from the same module; without the corpus it says
// why and does nothing (the test then skips with that reason).
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
