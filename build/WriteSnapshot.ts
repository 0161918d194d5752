// The last step of the build: every staged file and its compressed copies written, then the
// manifest made from what was written, and the folder moved into place; on any failure the
// staging folder is removed and the previous snapshot stays.
import * as Effect from "effect/Effect"
import { SnapshotManifest } from "../src/catalog/domain/Manifest.js"
import { BuildError } from "./BuildError.js"
import { encodeJson } from "./EncodeJson.js"
import type { SnapshotEntry, StagedSnapshot } from "./SnapshotWriter.js"

export interface WrittenSnapshot {
  readonly manifest: SnapshotManifest
  readonly written: Readonly<Record<string, SnapshotEntry>>
}

export const writeSnapshot = Effect.fn("Build.writeSnapshot")(function* (
  staged: StagedSnapshot,
  out: string,
  progress: (message: string) => void,
  manifestOf: (written: Readonly<Record<string, SnapshotEntry>>) => SnapshotManifest
) {
  const cannotWrite = (error: unknown) =>
    new BuildError({ file: out, reason: `cannot write the snapshot: ${String(error)}` })
  const discard = Effect.promise(() => staged.discard())
  const written = yield* Effect.tryPromise({
    try: () => staged.writeFiles(progress),
    catch: cannotWrite
  }).pipe(Effect.tapError(() => discard))
  const manifest = manifestOf(written)
  yield* Effect.tryPromise({
    try: () => staged.commit(encodeJson(SnapshotManifest, manifest)),
    catch: cannotWrite
  }).pipe(Effect.tapError(() => discard))
  return { manifest, written } satisfies WrittenSnapshot
})
