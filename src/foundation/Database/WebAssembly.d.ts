// TypeScript describes WebAssembly only in its DOM and web-worker libraries, which this Node project
// does not load (esbuild's types declare the module type alone): what EmbeddedPostgres.ts uses.
declare namespace WebAssembly {
  // biome-ignore lint/suspicious/noEmptyInterface: an opaque type, merged with esbuild's declaration
  interface Module {}
  function compile(bytes: Uint8Array): Promise<Module>
}
