// Made by scripts/lib/viewer-preloads.ts from the client build (empty lists in dev).
declare module "virtual:viewer-preloads" {
  const preloads: import("../../scripts/lib/viewer-preloads").ViewerPreloads;
  export default preloads;
}
