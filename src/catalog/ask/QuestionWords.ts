// The words of a question as ask reads them: split and folded (lowercase, no diacritics, no
// possessive), numbers written in digits or words, ordinals, and the common words that carry no topic.

const combiningMarks = /\p{M}+/gu
/** Lowercase without diacritics, so "Sigrun" finds "Sigrún". */
export const foldName = (word: string) => word.normalize("NFKD").replace(combiningMarks, "").toLowerCase()

const wordPattern = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu
export const possessive = /['’]s$/

export interface Word {
  readonly text: string
  readonly folded: string
  readonly start: number
}

export const wordsOf = (text: string): Array<Word> =>
  [...text.matchAll(wordPattern)].map((match) => ({
    text: match[0],
    folded: foldName(match[0]).replace(possessive, ""),
    start: match.index
  }))

const units: Readonly<Record<string, number>> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19
}
const tens: Readonly<Record<string, number>> = {
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90
}
const ordinals: Readonly<Record<string, number>> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
  tenth: 10,
  eleventh: 11,
  twelfth: 12,
  thirteenth: 13,
  fourteenth: 14,
  fifteenth: 15
}

/** A number written at `words[i]` ("12", "twelve", "forty-two", "forty two"), with the words it took. */
export const numberAt = (
  words: ReadonlyArray<Word>,
  i: number
): { value: number; length: number } | undefined => {
  const word = words[i]?.folded
  if (word === undefined) return undefined
  if (/^\d{1,6}$/.test(word)) return { value: Number(word), length: 1 }
  const unit = units[word]
  if (unit !== undefined) return { value: unit, length: 1 }
  const [ten, one] = word.split("-")
  const tensValue = tens[ten ?? ""]
  if (tensValue === undefined) return undefined
  if (one !== undefined) {
    const oneValue = units[one]
    return oneValue !== undefined && oneValue < 10 ? { value: tensValue + oneValue, length: 1 } : undefined
  }
  const next = units[words[i + 1]?.folded ?? ""]
  return next !== undefined && next < 10
    ? { value: tensValue + next, length: 2 }
    : { value: tensValue, length: 1 }
}

/** "2nd", "second": an ordinal at `words[i]`. */
export const ordinalAt = (words: ReadonlyArray<Word>, i: number): number | undefined => {
  const word = words[i]?.folded ?? ""
  const digits = /^(\d{1,4})(?:st|nd|rd|th)$/.exec(word)
  return digits?.[1] !== undefined ? Number(digits[1]) : ordinals[word]
}

/** Words that name an episode, and those that name a season. */
export const episodeWords = new Set(["episode", "episodes", "ep", "eps", "show", "shows"])
export const sessionWords = new Set(["season", "seasons", "session", "sessions", "series"])

/**
 * Words that carry no topic: function words, question words, and the words used to ask about the
 * show itself. What is left is searched for.
 */
export const stopwords = new Set(
  (
    "a an the and or but nor of in on at to for from by with about as into over under between through during " +
    "before after above below up down out off than then so if is are was were be been being am do does did done " +
    "doing have has had having will would shall should can could may might must what which who whom whose where " +
    "when why how that this these those there here it its they them their theirs he him his she her hers we us " +
    "our ours you your yours me my mine any some all each every no not only also just very more most much many " +
    "such own same other too tell told say said says saying talk talked talks talking speak spoke speaks mention " +
    "mentioned mentions discuss discussed discusses explain explained explains describe described describes " +
    "episode episodes ep eps season seasons session sessions series podcast podcasts show shows guest guests host " +
    "hosts anyone someone something anything know find please give list get got let like want think thing things " +
    "one ones ever again way lot lots really actually whether happen happens happened happening go goes went " +
    "whats whos wheres whens"
  ).split(" ")
)
