// Runs before every test file. @effect/vitest's `layer(...)` and `it.layer(...)` hand their callback
// vitest's own `it` with its methods replaced (Object.assign) by ones bound to that layer's runtime and
// memo map, and leave them replaced. A worker keeps its modules from one file to the next
// (isolate: false), so without this the next file's `it.effect` ran in the previous file's layer (its
// failure became theirs) and its `it.layer` was built inside the previous file's memo map: a
// module-level layer such as HttpLayerRouter.layer was then the previous file's router, and a route
// mounted again there failed ("Method 'ACL' already declared"), depending on which files shared a
// worker. It also kept every earlier file's services reachable. Each file starts from the plain
// methods.
// (@effect/vitest's `it` is vitest's own object.)
import { it, makeMethods } from "@effect/vitest"

makeMethods(it)
