// The first step of the build: the feed read and parsed, then its items given their identities
// (slug, number, session) and put in publication order, newest first.
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { BuildError } from "./BuildError.js"
import { type Feed, type FeedItem, parseFeed } from "./Feed.js"
import { assignIdentities, type EpisodeIdentity } from "./Slugs.js"
import { readText } from "./SourceFiles.js"

export interface IdentifiedItem {
  readonly item: FeedItem
  readonly identity: EpisodeIdentity
}

export const readFeed = Effect.fn("Build.readFeed")(function* (file: string) {
  const text = yield* readText(file, { what: "the feed" })
  return yield* Either.mapLeft(
    parseFeed(text),
    (problem) =>
      new BuildError({
        file,
        line: problem.line,
        item: problem.item,
        guid: problem.guid,
        reason: problem.message
      })
  )
})

const byNewest = (a: FeedItem, b: FeedItem) =>
  b.publishedAt.getTime() - a.publishedAt.getTime() || a.position - b.position

/** Every item of the feed at `file` with its identity, newest first (feed order on the same date). */
export const identifyItems = (file: string, feed: Feed): Either.Either<Array<IdentifiedItem>, BuildError> =>
  Either.map(
    Either.mapLeft(
      assignIdentities(feed.items),
      (duplicate) =>
        new BuildError({
          file,
          line: duplicate.second.line,
          item: duplicate.second.title,
          reason: `duplicate slug "${duplicate.slug}": session ${duplicate.session} already has episode ${duplicate.slug} ("${duplicate.first.title}", line ${duplicate.first.line})`
        })
    ),
    (identities) =>
      feed.items
        .map((item, index) => ({ item, identity: identities[index] as EpisodeIdentity }))
        .sort((a, b) => byNewest(a.item, b.item))
  )
