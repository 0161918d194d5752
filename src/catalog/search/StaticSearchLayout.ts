// Where the static search files put each term, paragraph and length (docs/decisions/static-search-index.md,
// content/docs/snapshot.md): shared by the build, which writes them, and the snapshot reader
// (packages/snapshot-reader), which finds them, so the two cannot disagree. No dependencies: the
// reader runs it in browsers.

/** The static search's entry, one of the two files of a snapshot whose name is fixed. */
export const searchEntryPath = "search.json"

/** Paragraphs per text block: a page of ten hits reads at most ten blocks. */
export const textBlockSize = 64

/** Paragraph lengths per length block (read only by queries made of very frequent words alone). */
export const lengthBlockSize = 4096

/** At most this many shards per index. */
export const maxShards = 1024

/** About this many postings per shard, below `maxShards`: small catalogs get few files. */
const postingsPerShard = 1024

/** The number of shards for an index holding `postings` ids in all: a power of two, 1…1024. */
export const shardCountFor = (postings: number): number => {
  let count = 1
  while (count < maxShards && count * postingsPerShard < postings) count *= 2
  return count
}

const utf8 = new TextEncoder()

/** 32-bit FNV-1a of the term's UTF-8 bytes. */
export const fnv1a = (term: string): number => {
  let hash = 0x811c9dc5
  for (const byte of utf8.encode(term)) {
    hash ^= byte
    hash = Math.imul(hash, 0x01000193)
  }
  return hash >>> 0
}

/** The shard holding a folded term. */
export const shardOf = (term: string, shardCount: number): number => fnv1a(term) % shardCount

/** A shard's file name in its folder: three hex digits, `0a3.json`. */
export const shardFile = (shard: number): string => `${shard.toString(16).padStart(3, "0")}.json`

/** The file holding the whole posting list of the `k`-th split term of a shard: `0a3-0.json`. */
export const wholeListFile = (shard: number, k: number): string =>
  `${shard.toString(16).padStart(3, "0")}-${k}.json`

/**
 * The resolution slots a head holds (`headListFile`): FlexSearch puts a paragraph's first word in
 * slot 0, so two words share no paragraph there, and a query of very frequent words fills its
 * candidates within slot 1.
 */
export const headSlots = 2

/** The file holding the first `headSlots` slots of the `k`-th split term of a shard: `0a3-0-head.json`. */
export const headListFile = (shard: number, k: number): string =>
  `${shard.toString(16).padStart(3, "0")}-${k}-head.json`

/** The file holding the lengths of the paragraphs of that head, in its order: `0a3-0-head-lengths.json`. */
export const headLengthsFile = (shard: number, k: number): string =>
  `${shard.toString(16).padStart(3, "0")}-${k}-head-lengths.json`

/** A block's file name in its folder (text and length blocks): its number, `12.json`. */
export const blockFile = (block: number): string => `${block}.json`

/** Ids as the first id, then the difference from the previous one. */
export const deltaEncode = (ids: ReadonlyArray<number>): Array<number> =>
  ids.map((id, i) => (i === 0 ? id : id - (ids[i - 1] as number)))

export const deltaDecode = (deltas: ReadonlyArray<number>): Array<number> => {
  const ids = new Array<number>(deltas.length)
  let previous = 0
  for (let i = 0; i < deltas.length; i++) {
    previous = i === 0 ? (deltas[0] as number) : previous + (deltas[i] as number)
    ids[i] = previous
  }
  return ids
}

/** FlexSearch's slots of one term (ids by resolution slot, `null` for an empty slot). */
export type Slots = ReadonlyArray<ReadonlyArray<number> | null>

export const encodeSlots = (slots: Slots): Array<Array<number> | null> =>
  slots.map((ids) => (ids === null ? null : deltaEncode(ids)))

export const decodeSlots = (slots: Slots): Array<Array<number> | null> =>
  slots.map((ids) => (ids === null ? null : deltaDecode(ids)))

/** How many ids the slots hold. */
export const postingCount = (slots: Slots): number => slots.reduce((sum, ids) => sum + (ids?.length ?? 0), 0)

/** The first `limit` postings of the slots, in slot order: what FlexSearch reads first. */
export const firstPostings = (slots: Slots, limit: number): Array<Array<number> | null> => {
  let left = limit
  const kept: Array<Array<number> | null> = []
  for (const ids of slots) {
    if (left === 0) break
    if (ids === null) kept.push(null)
    else {
      const taken = ids.slice(0, left)
      kept.push(taken)
      left -= taken.length
    }
  }
  return kept
}
