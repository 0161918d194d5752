// Runs benchmarks, each in its own Node process so that one's memory and JIT state cannot colour
// the next: `npm run bench -- <name>…` runs `bench/<name>.ts`; with no name, every benchmark.
import { spawnSync } from "node:child_process"
import { readdirSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const here = dirname(fileURLToPath(import.meta.url))
const available = readdirSync(here)
  .filter((file) => file.endsWith(".ts") && file !== "run.ts" && !file.startsWith("_"))
  .map((file) => file.slice(0, -3))
  .sort()

const asked = process.argv.slice(2)
const unknown = asked.filter((name) => !available.includes(name))
if (unknown.length > 0 || available.length === 0) {
  console.error(`Unknown benchmark: ${unknown.join(", ")}. Available: ${available.join(", ")}`)
  process.exit(2)
}
for (const name of asked.length > 0 ? asked : available) {
  console.log(`\n# ${name}`)
  const result = spawnSync(process.execPath, ["--import", "tsx", join(here, `${name}.ts`)], {
    stdio: "inherit"
  })
  if (result.status !== 0) process.exit(result.status ?? 1)
}
