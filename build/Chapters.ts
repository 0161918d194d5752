// Podcasting 2.0 JSON chapters (`{ version, chapters: [{ startTime, title, url?, img?, toc? }] }`)
// to the catalog's Chapter records. Chapters hidden from the table of contents are left out.
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { Chapter } from "../src/catalog/domain/Episode.js"

const ChapterFile = Schema.Struct({
  version: Schema.optional(Schema.String),
  chapters: Schema.Array(
    Schema.Struct({
      startTime: Schema.Number.pipe(Schema.finite(), Schema.nonNegative()),
      title: Schema.optional(Schema.String),
      url: Schema.optional(Schema.String),
      img: Schema.optional(Schema.String),
      toc: Schema.optional(Schema.Boolean)
    })
  )
})

const decode = Schema.decodeUnknownEither(ChapterFile, { errors: "first" })

export const parseChapters = (source: string): Either.Either<Array<Chapter>, string> => {
  let json: unknown
  try {
    json = JSON.parse(source.replace(/^\uFEFF/, ""))
  } catch (error) {
    return Either.left(`not valid JSON: ${error instanceof Error ? error.message : String(error)}`)
  }
  return Either.mapBoth(decode(json), {
    onLeft: (error) =>
      `not a Podcasting 2.0 chapters file: ${ParseResult.TreeFormatter.formatErrorSync(error)}`,
    onRight: (file) =>
      file.chapters
        .filter(
          (chapter) => chapter.toc !== false && chapter.title !== undefined && chapter.title.trim() !== ""
        )
        .map(
          (chapter) =>
            new Chapter({
              startSeconds: chapter.startTime,
              title: (chapter.title ?? "").trim(),
              ...(chapter.url === undefined ? {} : { url: chapter.url }),
              ...(chapter.img === undefined ? {} : { imageUrl: chapter.img })
            })
        )
  })
}
