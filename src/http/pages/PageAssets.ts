// Serves the pages' stylesheet under its content-hashed path, compressed, with a strong ETag and
// cached for good (a new stylesheet gets a new path).
import * as zlib from "node:zlib"
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import { respondPrepared } from "../PreparedHttp.js"
import { type PreparedResponse, variant } from "../PreparedResponse.js"
import { stylesheetPath, stylesheetText } from "./Stylesheet.js"

const body = Buffer.from(stylesheetText, "utf8")

export const stylesheetResponse: PreparedResponse = {
  contentType: "text/css; charset=utf-8",
  cacheControl: "public, max-age=31536000, immutable",
  variants: {
    identity: variant(body),
    gzip: variant(zlib.gzipSync(body, { level: 9 })),
    br: variant(zlib.brotliCompressSync(body))
  }
}

/** The route of the stylesheet; mounted once by the server, whichever features are on. */
export const PageAssetRoutes = HttpLayerRouter.add("GET", stylesheetPath, respondPrepared(stylesheetResponse))
