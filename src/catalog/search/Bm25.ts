// Relevance as BM25, computed here because FlexSearch 0.8 reports no scores: the usual parameters,
// and relevance rounded to three decimals so that equal scores compare equal in every surface.

// BM25 parameters (the usual defaults).
const k1 = 1.2
const b = 0.75

/** The BM25 score of one term in one document (or field). */
export const bm25 = (tf: number, length: number, averageLength: number, idf: number) =>
  (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * length) / Math.max(averageLength, 1)))

/** BM25's inverse document frequency of a term found in `containing` of `documents`. */
export const inverseFrequency = (documents: number, containing: number) =>
  Math.log(1 + (documents - containing + 0.5) / (containing + 0.5))

/** A relevance in whole thousandths: what answers carry, times 1,000. */
export const thousandths = (n: number) => Math.round(n * 1000)

/** A relevance as answers carry it. */
export const roundRelevance = (n: number) => thousandths(n) / 1000
