// The snapshot's JSON Schemas staged as files of the snapshot (`schemas/<kind>.<hash>.json`), one
// per kind of file, derived from the catalog's Schema classes (src/catalog/domain/SnapshotFormat.ts).
import { SnapshotSchemas } from "../src/catalog/domain/Manifest.js"
import {
  jsonSchemaOf,
  type SnapshotFileKind,
  snapshotFileSchemas
} from "../src/catalog/domain/SnapshotFormat.js"
import type { StagedSnapshot } from "./SnapshotWriter.js"

export const stageSchemas = (staged: StagedSnapshot): SnapshotSchemas => {
  const kinds = Object.keys(snapshotFileSchemas) as Array<SnapshotFileKind>
  const paths = Object.fromEntries(
    kinds.map((kind) => [kind, staged.addJson("schemas", kind, JSON.stringify(jsonSchemaOf(kind), null, 2))])
  ) as Record<SnapshotFileKind, string>
  return new SnapshotSchemas(paths)
}
