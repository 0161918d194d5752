// A session's device as a person recognises it ("Firefox on Windows") from the user agent stored
// with it, which is long and meant for machines. Only the common browsers and systems are named;
// anything else shows the agent's first word (e.g. "curl"), and no agent at all says so.

const browsers: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bEdg(e|A|iOS)?\//, "Edge"],
  [/\bOPR\//, "Opera"],
  [/\bFirefox\//, "Firefox"],
  [/\bHeadlessChrome\//, "Headless Chrome"],
  [/\b(Chrome|CriOS|Chromium)\//, "Chrome"],
  [/\bSafari\//, "Safari"]
]

const systems: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b(iPhone|iPad|iPod)\b/, "iOS"],
  [/\bAndroid\b/, "Android"],
  [/\bWindows\b/, "Windows"],
  [/\bMac OS X\b|\bMacintosh\b/, "macOS"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bLinux\b/, "Linux"]
]

export const deviceName = (userAgent: string | null): string => {
  if (userAgent === null || userAgent.trim() === "") return "An unknown device"
  const browser = browsers.find(([pattern]) => pattern.test(userAgent))?.[1]
  const system = systems.find(([pattern]) => pattern.test(userAgent))?.[1]
  if (browser !== undefined) return system === undefined ? browser : `${browser} on ${system}`
  return userAgent.split(/[\s/;(]/)[0]?.slice(0, 40) || "An unknown device"
}
