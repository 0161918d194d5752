// Why a snapshot folder cannot be served: the server refuses to start with this, naming the file.
import * as Data from "effect/Data"

export class CatalogLoadError extends Data.TaggedError("CatalogLoadError")<{
  readonly directory: string
  readonly reason: string
}> {
  override get message() {
    return `cannot load the catalog snapshot at ${this.directory}: ${this.reason}`
  }
}

/** Stops loading the snapshot at `directory` (thrown inside a load step, which turns it into a failure). */
export const failLoading =
  (directory: string) =>
  (reason: string): never => {
    throw new CatalogLoadError({ directory, reason })
  }
