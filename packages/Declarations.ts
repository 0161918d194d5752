// The declarations of a package built from the repository's sources (both packages' build.ts): tsc
// emits the declarations of every source file the entry imports, checked first, and only those the
// entry's declarations reach are written to dist/types/, with dist/index.d.ts re-exporting the
// entry's. A reached declaration that imports a module the package does not depend on fails the
// build, since a consumer's tsc would make every type from it `any`. For that, `standalone` modules
// have their exported type aliases written out in full: the reader's answers are the service's JSON,
// defined by Schema classes that a consumer without effect could not resolve.
import { mkdirSync, writeFileSync } from "node:fs"
import { dirname, join, relative, resolve, sep } from "node:path"
import { fileURLToPath } from "node:url"
import ts from "typescript"

const repository = resolve(dirname(fileURLToPath(import.meta.url)), "..")

export interface DeclarationOptions {
  /** The source module the package's entry is built from. */
  readonly entry: string
  /** The folder the reached sources lie in; their declarations keep their paths below it. */
  readonly rootDir: string
  /** The package's dist folder: dist/index.d.ts and dist/types/ are written there. */
  readonly dist: string
  /** The modules declarations may import: the package's dependencies and peers (a name, or `name/`). */
  readonly dependencies: ReadonlyArray<string>
  /** Source modules whose exported type aliases are written as plain types, importing nothing. */
  readonly standalone?: ReadonlyArray<string>
}

const formatHost: ts.FormatDiagnosticsHost = {
  getCanonicalFileName: (name) => name,
  getCurrentDirectory: () => repository,
  getNewLine: () => "\n"
}

// Module specifiers of a declaration file: `from "./x.js"`, `import("effect/Schema")`.
const specifier = /(?:from\s+|import\s*\(\s*)"([^"]+)"/g

/**
 * A type written out as TypeScript with no names of its own: objects as literals (properties
 * readonly, as Schema's encoded sides are, with their documentation), arrays as ReadonlyArray.
 */
const expandType = (checker: ts.TypeChecker, type: ts.Type, indent: string): string => {
  if (type.isUnion()) {
    const members = new Set(type.types.map((member) => parenthesized(checker, member, indent)))
    // A union holding boolean lists it as its two literals.
    if (members.has("false") && members.has("true")) {
      members.delete("false")
      members.delete("true")
      members.add("boolean")
    }
    // null and undefined last, as people write them: `string | undefined`.
    const absent = ["null", "undefined"]
    const present = [...members].filter((name) => !absent.includes(name))
    return [...present, ...absent.filter((name) => members.has(name))].join(" | ")
  }
  if (checker.isArrayType(type)) {
    const [element] = checker.getTypeArguments(type as ts.TypeReference)
    if (element === undefined) throw new Error("an array type without its element type")
    const name = type.getSymbol()?.getName() === "Array" ? "Array" : "ReadonlyArray"
    return `${name}<${expandType(checker, element, indent)}>`
  }
  if (checker.isTupleType(type)) {
    const elements = checker.getTypeArguments(type as ts.TypeReference)
    return `readonly [${elements.map((element) => expandType(checker, element, indent)).join(", ")}]`
  }
  const isObject = (type.flags & ts.TypeFlags.Object) !== 0 || type.isIntersection()
  if (isObject && type.getCallSignatures().length === 0 && type.getConstructSignatures().length === 0) {
    const inner = `${indent}  `
    const properties = checker.getPropertiesOfType(type).map((property) => {
      const optional = (property.flags & ts.SymbolFlags.Optional) !== 0
      const propertyType = checker.getTypeOfSymbol(property)
      const documentation = ts.displayPartsToString(property.getDocumentationComment(checker))
      const comment = documentation === "" ? "" : `${inner}/** ${documentation.replace(/\n/g, " ")} */\n`
      const name = /^[A-Za-z_$][\w$]*$/.test(property.name) ? property.name : JSON.stringify(property.name)
      return `${comment}${inner}readonly ${name}${optional ? "?" : ""}: ${expandType(checker, propertyType, inner)}`
    })
    return properties.length === 0 ? "{}" : `{\n${properties.join("\n")}\n${indent}}`
  }
  const written = checker.typeToString(type, undefined, ts.TypeFormatFlags.NoTruncation)
  if (
    !/^(string|number|boolean|bigint|null|undefined|unknown|never|true|false|-?[\d.e+]+|"(?:[^"\\]|\\.)*")$/.test(
      written
    )
  ) {
    throw new Error(`cannot write ${written} as a standalone type`)
  }
  return written
}

const parenthesized = (checker: ts.TypeChecker, type: ts.Type, indent: string) =>
  type.isIntersection() ? `(${expandType(checker, type, indent)})` : expandType(checker, type, indent)

/** A standalone module's declarations: its exported type aliases, each written out, with their comments. */
const standaloneDeclarations = (checker: ts.TypeChecker, source: ts.SourceFile): string => {
  const text = source.getFullText()
  const declarations = source.statements.flatMap((statement) => {
    if (!ts.isTypeAliasDeclaration(statement)) return []
    if ((ts.getCombinedModifierFlags(statement) & ts.ModifierFlags.Export) === 0) return []
    const symbol = checker.getSymbolAtLocation(statement.name)
    if (symbol === undefined) throw new Error(`no symbol for ${statement.name.text}`)
    const comments = (ts.getLeadingCommentRanges(text, statement.pos) ?? [])
      .map((range) => text.slice(range.pos, range.end))
      .filter((comment) => comment.startsWith("/**"))
    const written = expandType(checker, checker.getDeclaredTypeOfSymbol(symbol), "")
    return [[...comments, `export type ${statement.name.text} = ${written}`].join("\n")]
  })
  return `${declarations.join("\n\n")}\n`
}

/** The declarations of every source module the entry imports, by source path, checked first. */
const emitDeclarations = (options: DeclarationOptions): Map<string, string> => {
  const config = ts.readConfigFile(join(repository, "tsconfig.json"), ts.sys.readFile)
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, repository)
  // Emitted in memory under a folder of its own, then mapped back to the source each came from.
  const out = join(repository, ".declarations")
  const program = ts.createProgram([options.entry], {
    ...parsed.options,
    noEmit: false,
    declaration: true,
    emitDeclarationOnly: true,
    rootDir: repository,
    outDir: out,
    plugins: []
  })
  const outputs = new Map<string, string>()
  const result = program.emit(
    undefined,
    (file, text) =>
      outputs.set(join(repository, relative(out, resolve(file))).replace(/\.d\.ts$/, ".ts"), text),
    undefined,
    true
  )
  const diagnostics = [...ts.getPreEmitDiagnostics(program), ...result.diagnostics]
  if (diagnostics.length > 0) throw new Error(ts.formatDiagnostics(diagnostics, formatHost))
  for (const module of options.standalone ?? []) {
    const source = program.getSourceFile(module)
    if (source === undefined) throw new Error(`${relative(repository, module)} is not imported by the entry`)
    outputs.set(module, standaloneDeclarations(program.getTypeChecker(), source))
  }
  return outputs
}

/**
 * The sources whose declarations the entry's reach. Server-side modules the bundle never includes
 * are emitted too (a module's declarations keep all its exports' imports), but a consumer must not
 * see them, nor anything outside `rootDir` or the package's dependencies.
 */
const reachable = (outputs: ReadonlyMap<string, string>, options: DeclarationOptions): Set<string> => {
  const seen = new Set<string>()
  const pending = [options.entry]
  const allowed = (name: string) =>
    options.dependencies.some((dependency) =>
      dependency.endsWith("/")
        ? name.startsWith(dependency)
        : name === dependency || name.startsWith(`${dependency}/`)
    )
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue
    const text = outputs.get(file)
    if (text === undefined) throw new Error(`no declarations for ${relative(repository, file)}`)
    if (relative(options.rootDir, file).startsWith(`..${sep}`)) {
      throw new Error(
        `the declarations reach ${relative(repository, file)}, outside ${relative(repository, options.rootDir)}`
      )
    }
    seen.add(file)
    for (const [, name = ""] of text.matchAll(specifier)) {
      if (name.startsWith(".")) pending.push(resolve(dirname(file), name.replace(/\.js$/, ".ts")))
      else if (!allowed(name)) {
        throw new Error(
          `${relative(repository, file)}'s declarations import ${name}, not a dependency of the package`
        )
      }
    }
  }
  return seen
}

/** Writes dist/types/ (the declarations the entry reaches) and dist/index.d.ts (the entry's). */
export const writeDeclarations = (options: DeclarationOptions): void => {
  const outputs = emitDeclarations(options)
  const types = join(options.dist, "types")
  const target = (file: string) => join(types, relative(options.rootDir, file).replace(/\.ts$/, ".d.ts"))
  for (const file of reachable(outputs, options)) {
    mkdirSync(dirname(target(file)), { recursive: true })
    writeFileSync(target(file), outputs.get(file) ?? "")
  }
  const entryModule = `./${relative(options.dist, target(options.entry)).replace(/\.d\.ts$/, ".js")}`
  writeFileSync(join(options.dist, "index.d.ts"), `export * from "${entryModule}"\n`)
}
