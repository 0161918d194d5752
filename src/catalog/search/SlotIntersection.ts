// FlexSearch 0.8's own search of several whole words over one field, done on its posting slots with
// typed arrays. FlexSearch counts how often it has met each id in an object keyed by id (a hash
// table in V8), about a microsecond a posting: a query with a frequent word ("the", "you") reads
// 100,000 postings and took 50–100 ms on the corpus. This is the same walk with the same result in
// the same order (index/search.js, intersect.js and resolve/default.js of flexsearch 0.8.212): the
// slots in resolution order, each term's ids of that slot in turn, an id taken when the last of the
// terms meets it, at most `limit`; one term's ids are its slots in order. On the corpus it answers
// in under a millisecond what FlexSearch answers in 50 (bench/corpus-search.ts). The differential
// test (test/catalog/slot-intersection.test.ts) holds it to FlexSearch's own `search`. No
// dependencies: the snapshot reader runs it in browsers.
import type { Slots } from "./StaticSearchLayout.js"

/**
 * How often the current walk has met each id, in one array (one memory read per posting): the walk's
 * number in the high 24 bits, the count in the low 8, so that nothing is cleared between walks.
 * Grown to the largest id met.
 */
let seen = new Uint32Array(0)
let walk = 0
const countBits = 8
const countMask = (1 << countBits) - 1

/** A copy of `array` with room for index `largest`, at least twice as long. */
const enlarged = (array: Uint32Array, largest: number) => {
  const larger = new Uint32Array(Math.max(largest + 1, array.length * 2, 1024))
  larger.set(array)
  return larger
}

const grow = (largestId: number) => {
  seen = enlarged(seen, largestId)
}

/**
 * Makes room for ids below `count` ahead of the first walk: a page searching a large catalog
 * allocates the array while it waits for the user (a fresh 1 MB array cost the corpus' first query
 * in Chromium 8 ms), not inside the query.
 */
export const reserveIds = (count: number) => {
  if (count <= seen.length) return
  grow(count - 1)
  // A new array's pages are mapped as they are first written: write them all now.
  seen.fill(0)
}

/**
 * A new walk's number; the array starts afresh when the numbers run out. (The first walk needs no
 * clearing: a new array is zeros, and clearing it cost a fresh page 4 ms.)
 */
const nextWalk = () => {
  if (walk === 0xffffff) {
    seen.fill(0)
    walk = 0
  }
  return ++walk
}

/**
 * The ids of one term as a bit set (a bit per id: 28 KB for the corpus' 222,436 paragraphs, in the
 * fastest cache), so that the walk can pass over the postings of frequent words that the rarest word
 * does not share without touching `seen` (a read and a write in a 900 KB array each). On the corpus
 * bench's queries the walk was half of a query's time; the ids it finds and their order are the same,
 * since an id is found only when every term, the rarest among them, has met it.
 */
let member = new Uint32Array(0)

const setMembers = (slots: Slots) => {
  for (const ids of slots) {
    if (ids === null || ids === undefined) continue
    for (let z = 0; z < ids.length; z++) {
      const id = ids[z] as number
      const word = id >>> 5
      if (word >= member.length) member = enlarged(member, word)
      member[word] = (member[word] as number) | (1 << (id & 31))
    }
  }
}

const clearMembers = (slots: Slots) => {
  for (const ids of slots) {
    if (ids === null || ids === undefined) continue
    for (let z = 0; z < ids.length; z++) member[(ids[z] as number) >>> 5] = 0
  }
}

const postingsOf = (slots: Slots) => {
  let count = 0
  for (const ids of slots) count += ids?.length ?? 0
  return count
}

/**
 * Sets the ids of the term with the fewest postings in `member` and answers its slots, when the
 * others have many more (setting and clearing its bits reads its postings twice); undefined, with
 * nothing set, when filtering would not pay.
 */
const markRarestTerm = (present: ReadonlyArray<Slots>): Slots | undefined => {
  let rarest: Slots | undefined
  let fewest = Number.POSITIVE_INFINITY
  let most = 0
  for (const slots of present) {
    const postings = postingsOf(slots)
    if (postings < fewest) {
      fewest = postings
      rarest = slots
    }
    most = Math.max(most, postings)
  }
  if (rarest === undefined || fewest * 4 > most) return undefined
  setMembers(rarest)
  return rarest
}

/**
 * Which slot of a frequent term lists each id, for the walk to skip: where the rarest term of a query
 * has far fewer postings than every other, reading the others' slots of each of its ids costs a few
 * reads an id, where the walk passes over every posting of the others (100,000 for "the" on the
 * corpus, most of a query's walk). Built for a term the first time such a query names it, and kept:
 * half a byte an id (111 KB a term on the corpus), and only for the terms listing at least
 * `minimumPostings` ids.
 */
export interface SlotTables {
  /** The table of `slots` (the slot + 1 of each id, 0 where it has none), or undefined when it has none. */
  readonly tableOf: (slots: Slots) => Uint8Array | undefined
  /** How many times more postings than the rarest term's every other term must have for the tables to answer. */
  readonly rarerBy: number
}

/** Slots a table can tell apart: a nibble holds slot + 1. */
const maximumTableSlots = 15

export const makeSlotTables = (minimumPostings: number, rarerBy = 8): SlotTables => {
  // By the index's own slots object: the service's index keeps one per term.
  const tables = new WeakMap<Slots, Uint8Array | null>()
  const build = (slots: Slots): Uint8Array | null => {
    if (slots.length > maximumTableSlots || postingsOf(slots) < minimumPostings) return null
    let largest = 0
    for (const ids of slots) {
      if (ids === null || ids === undefined) continue
      // The walk meets a slot's ids in their order; the tables answer them in ascending order.
      for (let z = 1; z < ids.length; z++) if ((ids[z] as number) <= (ids[z - 1] as number)) return null
      if (ids.length > 0) largest = Math.max(largest, ids[ids.length - 1] as number)
    }
    const table = new Uint8Array((largest >>> 1) + 1)
    slots.forEach((ids, y) => {
      if (ids === null || ids === undefined) return
      for (let z = 0; z < ids.length; z++) {
        const id = ids[z] as number
        table[id >>> 1] = (table[id >>> 1] as number) | ((y + 1) << ((id & 1) << 2))
      }
    })
    return table
  }
  return {
    rarerBy,
    tableOf: (slots) => {
      let table = tables.get(slots)
      if (table === undefined) {
        table = build(slots)
        tables.set(slots, table)
      }
      return table ?? undefined
    }
  }
}

/** The most postings of a rarest term the tables answer for (their keys are sorted). */
const tableLimit = 8192
/** The sort keys of the table path: (slot, term, id) as one number. */
const tableKeys = new Float64Array(tableLimit)
const idRange = 2 ** 32

/**
 * The walk's answer read from the slot tables of every term but the rarest, or undefined where that
 * does not pay or the tables cannot tell (a term without one, ids out of order). An id is found when
 * the last of its terms meets it: at the latest of its slots in every term, and within that slot at
 * the last term (in query order) that lists it there; among the ids found at one slot and term, in
 * the order that term's slot lists them, ascending.
 */
export const intersectByTables = (
  present: ReadonlyArray<Slots>,
  limit: number,
  tables: SlotTables
): Array<number> | undefined => {
  const terms = present.length
  let rarest = 0
  let fewest = Number.POSITIVE_INFINITY
  const postings = present.map(postingsOf)
  postings.forEach((count, x) => {
    if (count < fewest) {
      fewest = count
      rarest = x
    }
  })
  if (fewest > tableLimit) return undefined
  const others: Array<Uint8Array | undefined> = []
  for (let x = 0; x < terms; x++) {
    if (x === rarest) {
      others.push(undefined)
      continue
    }
    if ((postings[x] as number) < fewest * tables.rarerBy) return undefined
    const table = tables.tableOf(present[x] as Slots)
    if (table === undefined) return undefined
    others.push(table)
  }
  const rarestSlots = present[rarest] as Slots
  let count = 0
  for (let y = 0; y < rarestSlots.length; y++) {
    const ids = rarestSlots[y]
    if (ids === null || ids === undefined) continue
    for (let z = 0; z < ids.length; z++) {
      const id = ids[z] as number
      if (z > 0 && id <= (ids[z - 1] as number)) return undefined
      let lastSlot = y
      let lastTerm = rarest
      let found = true
      for (let x = 0; x < terms && found; x++) {
        const table = others[x]
        if (table === undefined) continue
        const slot = (((table[id >>> 1] ?? 0) >>> ((id & 1) << 2)) & 15) - 1
        if (slot < 0) found = false
        else if (slot > lastSlot || (slot === lastSlot && x > lastTerm)) {
          lastSlot = slot
          lastTerm = x
        }
      }
      if (found) tableKeys[count++] = (lastSlot * terms + lastTerm) * idRange + id
    }
  }
  const order = tableKeys.subarray(0, count).sort()
  const answer: Array<number> = []
  for (let i = 0; i < Math.min(count, limit); i++) answer.push((order[i] as number) % idRange)
  return answer
}

/** The first `limit` ids of one term's slots, in slot order. */
const firstIds = (slots: Slots, limit: number): Array<number> => {
  const ids: Array<number> = []
  for (const slot of slots) {
    if (slot === null || slot === undefined) continue
    for (let z = 0; z < slot.length && ids.length < limit; z++) ids.push(slot[z] as number)
    if (ids.length >= limit) break
  }
  return ids
}

/**
 * The ids found by every term's slots (`lists`, in the query's order, each term once), as FlexSearch
 * orders them, at most `limit`; none when a term has no slots. With `tables`, from the slot tables of
 * frequent terms where they answer (the same ids in the same order: test/catalog/slot-intersection.test.ts).
 */
export const intersectSlots = (
  lists: ReadonlyArray<Slots | undefined>,
  limit: number,
  tables?: SlotTables
): Array<number> => {
  if (lists.length === 0) return []
  const present: Array<Slots> = []
  for (const slots of lists) {
    if (slots === undefined || slots.length === 0) return []
    present.push(slots)
  }
  if (present.length === 1) return firstIds(present[0] as Slots, limit)
  if (tables !== undefined) {
    const answer = intersectByTables(present, limit, tables)
    if (answer !== undefined) return answer
  }

  const terms = present.length
  const resolution = Math.max(...present.map((slots) => slots.length))
  // FlexSearch adds a paragraph's term once, so an id is met at most once per term: it is found when
  // the last of the terms meets it. More terms than the low bits count (more than a query's 500
  // characters hold) are counted in a Map.
  const found: Array<number> = []
  const counted = terms < countMask
  const current = counted ? nextWalk() : 0
  const stamp = (current << countBits) >>> 0
  const counts = new Map<number, number>()
  const rarest = markRarestTerm(present)
  slots: for (let y = 0; y < resolution; y++) {
    for (let x = 0; x < terms; x++) {
      const ids = (present[x] as Slots)[y]
      if (ids === null || ids === undefined) continue
      for (let z = 0; z < ids.length; z++) {
        const id = ids[z] as number
        // Only the rarest term's ids can be found: the others are passed over without a count.
        if (rarest !== undefined && ((member[id >>> 5] ?? 0) & (1 << (id & 31))) === 0) continue
        let before: number
        if (counted) {
          if (id >= seen.length) grow(id)
          const entry = seen[id] as number
          before = entry >>> countBits === current ? entry & countMask : 0
          seen[id] = stamp + before + 1
        } else {
          before = counts.get(id) ?? 0
          counts.set(id, before + 1)
        }
        if (before === terms - 1) {
          found.push(id)
          if (found.length === limit) break slots
        }
      }
    }
  }
  if (rarest !== undefined) clearMembers(rarest)
  return found
}
