// The form posts of the foundation's pages and of OAuth's endpoints (application/x-www-form-urlencoded,
// the only media type their routes declare at the server's edge): read once, and each parameter at
// most once (RFC 6749 §3.1; a repeated one is refused rather than guessed at).
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { parametersTextProblem } from "../Domain/Text.js"

export const FORM_MEDIA_TYPE = "application/x-www-form-urlencoded"

/** The body could not be read as a form: missing, of another media type, or broken off. */
export class UnreadableForm extends Schema.TaggedError<UnreadableForm>()("UnreadableForm", {
  description: Schema.String
}) {}

const mediaTypeOf = (request: HttpServerRequest.HttpServerRequest) =>
  (request.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase() ?? ""

/**
 * The request's form parameters, in order, each name and value text the service accepts (no NUL, no
 * lone surrogate: `Domain/Text.ts`), so nothing read from a form can fail a statement later.
 */
export const formParameters: Effect.Effect<
  ReadonlyArray<readonly [string, string]>,
  UnreadableForm,
  HttpServerRequest.HttpServerRequest
> = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
  mediaTypeOf(request) === FORM_MEDIA_TYPE
    ? Effect.flatMap(
        Effect.mapError(
          request.urlParamsBody,
          () => new UnreadableForm({ description: "The request body could not be read." })
        ),
        (params) => {
          const problem = parametersTextProblem(params)
          return problem === undefined
            ? Effect.succeed(params)
            : Effect.fail(new UnreadableForm({ description: problem }))
        }
      )
    : Effect.fail(new UnreadableForm({ description: `The request body must be ${FORM_MEDIA_TYPE}.` }))
)

/** The parameters by name, or the name of the first one that appears twice. */
export const singleValued = (
  params: ReadonlyArray<readonly [string, string]>
): Either.Either<ReadonlyMap<string, string>, string> => {
  const byName = new Map<string, string>()
  for (const [name, value] of params) {
    if (byName.has(name)) return Either.left(name)
    byName.set(name, value)
  }
  return Either.right(byName)
}
