// The catalog's reads answered without the Effect runtime. A plain node handler in front of the
// router finds the route in the catalog's route table (the same table, schemas and operations the
// HttpApi handlers use), admits the request, and writes the prepared response or the error with the
// shared writers, so its bytes are the handlers' bytes; a URL the table does not route falls through.
import * as Either from "effect/Either"
import { writeError } from "../../http/ErrorAnswer.js"
import { writePrepared } from "../../http/PreparedHttp.js"
import type { FastHandler } from "../../http/ServerRegistries.js"
import type { CatalogAdmissionService } from "../CatalogAdmission.js"
import type { CatalogRouteTableService } from "./CatalogRouteTable.js"

export const makeCatalogFastPath = (
  table: CatalogRouteTableService,
  admission: CatalogAdmissionService
): FastHandler => {
  return (request, response) => {
    const method = request.method
    if (method !== "GET" && method !== "HEAD") return false
    // HEAD is answered by the GET route, as the router does.
    const found = table.find(request.url ?? "/")
    if (found === undefined) return false
    const admitted = admission.admitNode(request)
    if (Either.isLeft(admitted)) {
      writeError(request, response, admitted.left)
      return found.handler.route
    }
    const answer = found.handler(found.params, found.searchParams)
    if (Either.isRight(answer)) writePrepared(answer.right, request, response)
    else writeError(request, response, answer.left)
    return found.handler.route
  }
}
