// Serves the pages' stylesheet and their one script under content-hashed paths, compressed, with a
// strong ETag and cached for good (a new version gets a new path).
import * as zlib from "node:zlib"
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import * as Layer from "effect/Layer"
import { respondPrepared } from "../PreparedHttp.js"
import { type PreparedResponse, variant } from "../PreparedResponse.js"
import { pageScriptPath, pageScriptText } from "./PageScript.js"
import { stylesheetPath, stylesheetText } from "./Stylesheet.js"

const prepared = (contentType: string, text: string): PreparedResponse => {
  const body = Buffer.from(text, "utf8")
  return {
    contentType,
    cacheControl: "public, max-age=31536000, immutable",
    variants: {
      identity: variant(body),
      gzip: variant(zlib.gzipSync(body, { level: 9 })),
      br: variant(zlib.brotliCompressSync(body))
    }
  }
}

export const stylesheetResponse = prepared("text/css; charset=utf-8", stylesheetText)
export const pageScriptResponse = prepared("text/javascript; charset=utf-8", pageScriptText)

/** The routes of the assets; mounted once by the server, whichever features are on. */
export const PageAssetRoutes = Layer.mergeAll(
  HttpLayerRouter.add("GET", stylesheetPath, respondPrepared(stylesheetResponse)),
  HttpLayerRouter.add("GET", pageScriptPath, respondPrepared(pageScriptResponse))
)
