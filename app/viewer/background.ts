/** The colour behind a model unless its settings choose another (the viewer's canvas, server thumbnails). */
export const DEFAULT_BACKGROUND = "#1e1f22";
