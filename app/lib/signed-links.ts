/**
 * Where the local-disk driver's signed links live (app/storage/signing.server.ts builds them, app/routes/storage.$.ts
 * answers them): PUT stores a file, GET/HEAD serve it. The web server's request lanes know uploads by it.
 */
export const SIGNED_LINKS_PATH = "/storage/";
