// The one failure of the build: which file, and where in it, is wrong and why.
import * as Data from "effect/Data"

export class BuildError extends Data.TaggedError("BuildError")<{
  readonly file: string
  readonly line?: number | undefined
  /** The feed item concerned (its title), when there is one. */
  readonly item?: string | undefined
  /** The identity of an item that has no title (its guid, else its link or audio URL). */
  readonly guid?: string | undefined
  readonly reason: string
}> {
  override get message(): string {
    const where = this.line === undefined ? this.file : `${this.file}:${this.line}`
    const item =
      this.item !== undefined
        ? ` (item "${this.item}")`
        : this.guid !== undefined
          ? ` (the item with guid "${this.guid}")`
          : ""
    return `${where}${item}: ${this.reason}`
  }
}
