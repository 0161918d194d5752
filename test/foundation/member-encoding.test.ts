// The read fast path writes a page of members without encoding it (ReadFastPath.ts), which holds
// only while a Member encodes to itself: the same fields, in the same order, with the same values.
// Checked here on members generated from the schema itself, so a field that starts to transform
// (a date, a renamed key) fails this test rather than changing the fast path's bytes.
import { describe, expect, it } from "@effect/vitest"
import * as Arbitrary from "effect/Arbitrary"
import * as FastCheck from "effect/FastCheck"
import * as Schema from "effect/Schema"
import { Member } from "../../src/foundation/Domain/Member.js"
import { MemberRow } from "../../src/foundation/Members/MemberRepo.js"

const encodeMember = Schema.encodeSync(Member)
const decodeRow = Schema.decodeUnknownEither(MemberRow)

describe("a Member", () => {
  it("encodes to itself, so its JSON is the encoded page's", () => {
    FastCheck.assert(
      FastCheck.property(Arbitrary.make(Member), (member) => {
        const encoded = encodeMember(member)
        expect(JSON.stringify(member)).toBe(JSON.stringify(encoded))
        expect(Object.keys(member)).toEqual(Object.keys(encoded))
      }),
      { numRuns: 300 }
    )
  })

  it("has every field checked by the row schema the list reads", () => {
    const row = {
      id: "mem_0123456789abcdef01234567",
      userId: "usr_0123456789abcdef01234567",
      name: "A",
      email: "a@example.com",
      role: "member",
      createdAt: new Date()
    }
    expect(decodeRow(row)._tag).toBe("Right")
    expect(decodeRow({ ...row, email: "not an email" })._tag).toBe("Left")
    expect(decodeRow({ ...row, role: "emperor" })._tag).toBe("Left")
  })
})
