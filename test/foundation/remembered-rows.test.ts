// Rows decoded once and remembered (src/foundation/Database/RememberedRows.ts): a row equal in
// every column to one accepted before is that row's decoded value; any difference is decoded
// afresh, so a change is seen at once and a row the schema refuses is refused every time.
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as fc from "fast-check"
import { rememberedRows, sameValue } from "../../src/foundation/Database/RememberedRows.js"
import { MemberRow } from "../../src/foundation/Members/MemberRepo.js"

const row = (overrides: Record<string, unknown> = {}) => ({
  id: "mem_1",
  userId: "usr_1",
  name: "Ada",
  email: "ada@example.com",
  role: "member",
  createdAt: new Date("2026-01-01T00:00:00.000Z"),
  ...overrides
})

describe("remembered rows", () => {
  it.effect("give the same decoded value for a row of equal columns, read again", () =>
    Effect.gen(function* () {
      const rows = rememberedRows(MemberRow, "id")
      const [first] = yield* rows.all([row()])
      // A new row object from the next read, with a new Date of the same instant.
      const [again] = yield* rows.all([row()])
      expect(again).toBe(first)
      expect(first).toEqual(Schema.decodeUnknownSync(MemberRow)(row()))
    })
  )

  it.effect("compare only the columns the schema reads: another column changes nothing", () =>
    Effect.gen(function* () {
      const rows = rememberedRows(MemberRow, "id")
      const [first] = yield* rows.all([row()])
      const [withExtra] = yield* rows.all([row({ unrelated: "anything" })])
      expect(withExtra).toBe(first)
      // A column the schema reads that is missing is not the remembered row.
      const { email: _, ...withoutEmail } = row()
      expect(yield* Effect.flip(rows.all([withoutEmail]))).toMatchObject({ _tag: "ParseError" })
    })
  )

  it.effect("decode a changed row afresh and remember the change", () =>
    Effect.gen(function* () {
      const rows = rememberedRows(MemberRow, "id")
      const [before] = yield* rows.all([row()])
      const [renamed] = yield* rows.all([row({ name: "Ada L." })])
      expect(renamed).not.toBe(before)
      expect(renamed?.name).toBe("Ada L.")
      const [later] = yield* rows.all([row({ createdAt: new Date("2026-01-01T00:00:00.001Z") })])
      expect(later?.createdAt.getTime()).toBe(Date.parse("2026-01-01T00:00:00.001Z"))
      const [promoted] = yield* rows.all([row({ role: "admin" })])
      expect(promoted?.role).toBe("admin")
    })
  )

  it.effect("refuse a row the schema refuses, even under the key of an accepted one", () =>
    Effect.gen(function* () {
      const rows = rememberedRows(MemberRow, "id")
      yield* rows.all([row()])
      const refused = yield* Effect.flip(rows.all([row(), row({ id: "mem_2", email: "not an email" })]))
      expect(refused._tag).toBe("ParseError")
      expect(yield* Effect.flip(rows.all([row({ email: "not an email" })]))).toMatchObject({
        _tag: "ParseError"
      })
      // The refusal was not kept: the valid row is still the remembered one.
      const [valid] = yield* rows.all([row()])
      expect(valid?.email).toBe("ada@example.com")
      expect(yield* Effect.flip(rows.all([row({ role: "emperor" })]))).toMatchObject({ _tag: "ParseError" })
    })
  )

  it.effect("decode rows without a key every time, and read the first row of a statement", () =>
    Effect.gen(function* () {
      const rows = rememberedRows(MemberRow, "id")
      expect(yield* rows.first([])).toEqual(Option.none())
      const first = yield* rows.first([row(), row({ id: "mem_2" })])
      expect(Option.map(first, (member) => member.id)).toEqual(Option.some("mem_1"))
      expect(yield* Effect.flip(rows.first([row({ id: 7 })]))).toMatchObject({ _tag: "ParseError" })
    })
  )

  it.effect("compare JSON columns by value: a membership added or renamed is seen", () =>
    Effect.gen(function* () {
      const Row = Schema.Struct({
        id: Schema.String,
        memberships: Schema.Array(Schema.Struct({ organizationId: Schema.String, name: Schema.String }))
      })
      const rows = rememberedRows(Row, "id")
      const one = { id: "s", memberships: [{ organizationId: "o1", name: "One" }] }
      const first = Option.getOrThrow(yield* rows.first([one]))
      expect(Option.getOrThrow(yield* rows.first([structuredClone(one)]))).toBe(first)
      const renamed = { id: "s", memberships: [{ organizationId: "o1", name: "Uno" }] }
      expect(Option.getOrThrow(yield* rows.first([renamed])).memberships[0]?.name).toBe("Uno")
      const added = { id: "s", memberships: [...renamed.memberships, { organizationId: "o2", name: "Two" }] }
      expect(Option.getOrThrow(yield* rows.first([added])).memberships).toHaveLength(2)
    })
  )
})

describe("remembered rows read as text", () => {
  const names = ["id", "userId", "name", "email", "role", "createdAt", "unread"]
  const text = (overrides: Partial<Record<string, string | null>> = {}): Array<string | null> => {
    const columns: Record<string, string | null> = {
      id: "mem_1",
      userId: "usr_1",
      name: "Ada",
      email: "ada@example.com",
      role: "member",
      createdAt: "2026-01-01 00:00:00+00",
      unread: "x",
      ...overrides
    }
    return names.map((name) => columns[name] ?? null)
  }
  /** Text rows whose objects are made as a client would make them, counting how many were made. */
  const textRows = (rows: Array<Array<string | null>>, columnNames: Array<string> = names) => {
    const made = { count: 0 }
    return {
      made,
      rows: {
        names: columnNames,
        rows,
        object: (index: number) => {
          made.count++
          const object: Record<string, unknown> = {}
          columnNames.forEach((name, c) => {
            const value = rows[index]?.[c] ?? null
            object[name] = name === "createdAt" && value !== null ? new Date(value) : value
          })
          return object
        }
      }
    }
  }

  it("parse a row only when its text is not remembered, and see any change at once", () => {
    const rows = rememberedRows(MemberRow, "id")
    const read = (...texts: Array<Array<string | null>>) => {
      const result = textRows(texts)
      const values = Either.getOrThrow(rows.allText(result.rows))
      return { values, made: result.made.count }
    }
    const first = read(text())
    expect(first.made).toBe(1)
    expect(first.values[0]).toEqual(Schema.decodeUnknownSync(MemberRow)(textRows([text()]).rows.object(0)))
    const again = read(text())
    expect(again.made).toBe(0)
    expect(again.values[0]).toBe(first.values[0])
    // A column the schema does not read changed: parsed, found equal, the same value, now remembered.
    const unread = read(text({ unread: "y" }))
    expect(unread.made).toBe(1)
    expect(unread.values[0]).toBe(first.values[0])
    expect(read(text({ unread: "y" })).made).toBe(0)
    const renamed = read(text({ unread: "y", name: "Ada L." }))
    expect(renamed.made).toBe(1)
    expect(renamed.values[0]?.name).toBe("Ada L.")
    const later = read(text({ unread: "y", name: "Ada L.", createdAt: "2026-01-01 00:00:00.001+00" }))
    expect(later.values[0]?.createdAt.getTime()).toBe(Date.parse("2026-01-01T00:00:00.001Z"))
  })

  it("take the same text under other column names for another row", () => {
    const rows = rememberedRows(MemberRow, "id")
    Either.getOrThrow(rows.allText(textRows([text()]).rows))
    const swapped = ["id", "userId", "unread", "email", "role", "createdAt", "name"]
    const result = textRows([text()], swapped)
    const [value] = Either.getOrThrow(rows.allText(result.rows))
    expect(result.made.count).toBe(1)
    expect(value?.name).toBe("x")
  })

  it("refuse a row the schema refuses every time, and read nothing without a key", () => {
    const rows = rememberedRows(MemberRow, "id")
    const bad = textRows([text({ email: "not an email" })])
    expect(Either.isLeft(rows.allText(bad.rows))).toBe(true)
    expect(Either.isLeft(rows.allText(bad.rows))).toBe(true)
    expect(bad.made.count).toBe(2)
    const keyless = textRows([text({ id: null })])
    expect(Either.isLeft(rows.firstText(keyless.rows))).toBe(true)
    expect(Either.getOrThrow(rows.firstText(textRows([]).rows))).toEqual(Option.none())
    const two = textRows([text(), text({ id: "mem_2" })])
    expect(Option.map(Either.getOrThrow(rows.firstText(two.rows)), (member) => member.id)).toEqual(
      Option.some("mem_1")
    )
    expect(two.made.count).toBe(1)
  })
})

describe("sameValue", () => {
  const json = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: "small" },
      fc.constantFrom(null, true, false, 0, -0, 1, "", "a"),
      fc.string(),
      fc.integer(),
      fc.date({ noInvalidDate: true }),
      fc.array(tie("value"), { maxLength: 3 }),
      fc.dictionary(fc.string({ maxLength: 3 }), tie("value"), { maxKeys: 3 })
    )
  })).value

  it("holds for a value and its copy", () =>
    fc.assert(
      fc.property(json, (value) => {
        const copy = structuredClone(value)
        return sameValue(value, copy) && sameValue(copy, value)
      })
    ))

  it("agrees with a comparison of the values' canonical JSON", () => {
    const canonical = (value: unknown): string =>
      value instanceof Date
        ? `date(${value.getTime()})`
        : Array.isArray(value)
          ? `[${value.map(canonical).join(",")}]`
          : typeof value === "object" && value !== null
            ? `{${Object.keys(value)
                .sort()
                .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
                .join(",")}}`
            : JSON.stringify(value)
    fc.assert(
      fc.property(json, json, (a, b) => {
        // JSON writes -0 as 0, and -0 === 0: the same number to a column too.
        return sameValue(a, b) === (canonical(a) === canonical(b))
      })
    )
  })
})
