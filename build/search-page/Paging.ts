// How many results a page of each list shows. Passages come five at a time, as Pagefind's result
// pages do: a passage's text is a block file of its own (the ten hits of a page sit in six to ten
// different transcripts on the corpus), so each passage shown is a read the answer waits for.
// Five is the first page's reads halved; "More passages" reads the next five. Episodes come from
// the search's description (their cards), which costs no read, ten at a time as the service's pages.
export const passagesPerPage = 5
