/** Where the viewer's glTF decoders (DRACO, Basis) are served from (public/viewer-libs). */
export const DEFAULT_DECODER_PATH = "/viewer-libs/";
