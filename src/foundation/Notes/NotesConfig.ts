// The notebook's bounds (catalog-extensions §12), read from the environment once at start-up:
// how many notes an organization keeps, and how many note writes a minute one connection may make.
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"

export interface NotesSettings {
  /** At most this many notes per organization (§12: 500). */
  readonly notesPerOrganization: number
  /** Note writes (saves and deletes) a minute per grant or API token (§12: 30). */
  readonly noteWritesPerMinute: number
}

const bounded = (name: string, fallback: number, max: number) =>
  Config.integer(name).pipe(
    Config.validate({
      message: `${name} must be an integer between 1 and ${max}`,
      validation: (n) => n >= 1 && n <= max
    }),
    Config.withDefault(fallback)
  )

export class NotesConfig extends Context.Tag("NotesConfig")<NotesConfig, NotesSettings>() {
  static readonly layer = Layer.effect(
    NotesConfig,
    Config.all({
      notesPerOrganization: bounded("AGENT_NOTES_PER_ORGANIZATION", 500, 1_000_000),
      noteWritesPerMinute: bounded("AGENT_NOTE_WRITES_PER_MINUTE", 30, 1_000_000)
    })
  )
}
