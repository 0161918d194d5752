// How the agent surfaces (MCP tools, RPC procedures, ask) declare their arguments: a Schema struct
// that refuses unknown fields and says what it expects when it is given something else entirely.
import * as Schema from "effect/Schema"
import * as AST from "effect/SchemaAST"

/**
 * The arguments of a tool or procedure: an object whose unknown fields are refused, as REST refuses
 * unknown parameters, and which, when it is not an object at all, says what it should be.
 */
export const requestOf = <Fields extends Schema.Struct.Fields>(fields: Fields, description: string) => {
  const struct = Schema.Struct(fields)
  const properties = AST.isTypeLiteral(struct.ast) ? struct.ast.propertySignatures : []
  const shape = properties
    .map((property) => `${String(property.name)}${property.isOptional ? "?" : ""}`)
    .join(", ")
  return struct.annotations({
    description,
    parseOptions: { onExcessProperty: "error" },
    message: () => `must be an object { ${shape} }`
  })
}
