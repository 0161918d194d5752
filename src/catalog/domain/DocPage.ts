// A page of the service's own documentation (content/docs), served by the docs MCP server.
import * as Schema from "effect/Schema"
import { SchemaVersion } from "./Episode.js"

export class DocPage extends Schema.Class<DocPage>("DocPage")({
  /** File name within content/docs, e.g. `getting-started.md`. */
  path: Schema.String,
  title: Schema.String,
  /** The page's Markdown. */
  text: Schema.String
}) {}

export class DocCollection extends Schema.Class<DocCollection>("DocCollection")({
  data: Schema.Array(DocPage),
  schemaVersion: SchemaVersion
}) {}
