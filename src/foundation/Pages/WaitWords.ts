// How long to wait, said as a person would: seconds for a short wait, minutes for a long one (a
// limit counted by the hour answers with thousands of seconds).
export const waitWords = (seconds: number): string => {
  if (seconds <= 90) return seconds === 1 ? "1 second" : `${seconds} seconds`
  const minutes = Math.ceil(seconds / 60)
  return `about ${minutes} minutes`
}
