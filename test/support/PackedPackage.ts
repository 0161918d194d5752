// A workspace package as a consumer gets it: packed with npm (its prepack build runs), then its
// tarball installed into a new project of its own (offline when npm's cache has what it needs), for
// the package tests to type-check and run consumer programs in.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join, resolve } from "node:path"
import * as Effect from "effect/Effect"
import { type CommandResult, npmEnvironment, runCommand } from "./Command.js"
import { tempDir } from "./TempDir.js"

const tsc = resolve(import.meta.dirname, "..", "..", "node_modules", "typescript", "bin", "tsc")

export interface PackedPackage {
  /** The consumer project, with the package installed from its tarball. */
  readonly directory: string
  /** Every file of the packed tarball, as npm listed it. */
  readonly packedFiles: ReadonlyArray<string>
  /** The names of every package the consumer's install put in node_modules. */
  readonly installed: ReadonlyArray<string>
}

/** The result when the command succeeded; else the test dies with what it printed. */
export const succeeded = (what: string, result: CommandResult) =>
  result.code === 0
    ? Effect.succeed(result)
    : Effect.dieMessage(`${what} failed (${result.code}):\n${result.stdout}\n${result.stderr}`)

const names = (lockPackages: Record<string, unknown>) =>
  Object.keys(lockPackages)
    .filter((key) => key !== "")
    .map((key) => key.slice(key.lastIndexOf("node_modules/") + "node_modules/".length))

/** Packs the package in `packageDirectory` and installs the tarball into a new project named `name`. */
export const packAndInstall = (packageDirectory: string, name: string) =>
  Effect.gen(function* () {
    const root = tempDir(`${name}-`)
    const packs = join(root, "packs")
    mkdirSync(packs)
    const env = npmEnvironment()
    const pack = yield* runCommand("npm", ["pack", "--json", "--pack-destination", packs], {
      cwd: packageDirectory,
      env,
      timeoutMs: 180_000
    }).pipe(Effect.flatMap((result) => succeeded("npm pack", result)))
    const tarball = readdirSync(packs).find((file) => file.endsWith(".tgz"))
    if (tarball === undefined) return yield* Effect.dieMessage(`npm pack wrote no tarball:\n${pack.stdout}`)
    const packedFiles = (pack.stdout.match(/"path": "[^"]+"/g) ?? []).map((entry) => entry.slice(9, -1))
    const packageName = (
      JSON.parse(readFileSync(join(packageDirectory, "package.json"), "utf8")) as { name: string }
    ).name

    const directory = join(root, "consumer")
    mkdirSync(directory)
    writeFileSync(
      join(directory, "package.json"),
      JSON.stringify({
        name,
        private: true,
        type: "module",
        dependencies: { [packageName]: `file:${join(packs, tarball)}` }
      })
    )
    yield* runCommand("npm", ["install", "--prefer-offline", "--ignore-scripts", "--no-audit", "--no-fund"], {
      cwd: directory,
      env,
      timeoutMs: 180_000
    }).pipe(Effect.flatMap((result) => succeeded("npm install", result)))
    const lock = JSON.parse(readFileSync(join(directory, "package-lock.json"), "utf8"))
    const packed: PackedPackage = { directory, packedFiles, installed: names(lock.packages) }
    return packed
  })

/** The repository's tsc over a consumer project (`project`: its tsconfig file); never fails. */
export const typeCheck = (directory: string, project = "tsconfig.json") =>
  runCommand(process.execPath, [tsc, "-p", project], { cwd: directory })

/**
 * `source` type-checked as misuse/misuse.ts with the project's settings (its tsconfig.json), emitting
 * nothing: what tsc says of a use the declarations must refuse.
 */
export const typeCheckMisuse = (directory: string, source: string) => {
  mkdirSync(join(directory, "misuse"), { recursive: true })
  writeFileSync(join(directory, "misuse", "misuse.ts"), source)
  writeFileSync(
    join(directory, "tsconfig.misuse.json"),
    JSON.stringify({
      extends: "./tsconfig.json",
      compilerOptions: { noEmit: true },
      include: ["misuse/*.ts"]
    })
  )
  return typeCheck(directory, "tsconfig.misuse.json")
}
