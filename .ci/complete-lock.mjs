// Completes package-lock.json with the platform packages that this machine's registry does not serve.
// npm writes an optional dependency into the lock only when it can resolve it; the registry reachable
// here serves Linux builds only, so the lock lacked the macOS, Windows, musl… builds of Biome, Rollup
// and msgpackr, and `npm ci` (npm 11) refuses such a lock. Each missing entry is written with its
// version (from the parent's `optionalDependencies`) and the `os`/`cpu`/`libc` its name states, so
// npm skips it everywhere but on its own platform. Run after every change of dependencies:
//   npm install && node .ci/complete-lock.mjs && npm ci --dry-run
import { readFileSync, writeFileSync } from "node:fs"

const path = new URL("../package-lock.json", import.meta.url)
const lock = JSON.parse(readFileSync(path, "utf8"))
const packages = lock.packages

const osNames = ["android", "darwin", "freebsd", "linux", "openbsd", "openharmony", "win32", "netbsd", "sunos", "aix"]
const cpuNames = { "arm-eabi": "arm", arm: "arm", arm64: "arm64", x64: "x64", ia32: "ia32", loong64: "loong64", ppc64: "ppc64", riscv64: "riscv64", s390x: "s390x" }

/** `cli-linux-arm64-musl` → { os: linux, cpu: arm64, libc: musl }; undefined when the name says no platform. */
const platformOf = (name) => {
  const parts = name.split("/").pop().split("-")
  const at = parts.findIndex((part) => osNames.includes(part))
  if (at === -1) return undefined
  const os = parts[at]
  const rest = parts.slice(at + 1)
  const cpuKey = rest[0] === "arm" && rest[1] === "eabi" ? "arm-eabi" : rest[0]
  const cpu = cpuNames[cpuKey]
  if (cpu === undefined) return undefined
  const tail = rest.join("-")
  const libc = /musl/.test(tail) ? "musl" : os === "linux" && /gnu/.test(tail) ? "glibc" : undefined
  return { os, cpu, libc }
}

let added = 0
for (const [key, entry] of Object.entries(packages)) {
  for (const [dependency, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const base = key === "" ? "node_modules" : `${key}/node_modules`
    // npm resolves a dependency in the nearest node_modules up the tree; hoisted is the usual place.
    if (packages[`${base}/${dependency}`] !== undefined || packages[`node_modules/${dependency}`] !== undefined) continue
    const platform = platformOf(dependency)
    if (platform === undefined) continue
    const record = { version, cpu: [platform.cpu], dev: entry.dev, license: entry.license, optional: true, os: [platform.os] }
    if (platform.libc !== undefined) record.libc = [platform.libc]
    if (record.dev === undefined) delete record.dev
    if (record.license === undefined) delete record.license
    packages[`node_modules/${dependency}`] = record
    added++
  }
}
lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a < b ? -1 : a > b ? 1 : 0)))
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`)
console.log(`package-lock.json: ${added} platform packages added`)
