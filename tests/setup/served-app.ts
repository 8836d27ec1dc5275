import { afterAll, beforeAll } from "vitest";
import { apiClient } from "./api";
import { startTestServer } from "./test-server";

/** The built app as one test file sees it: its origin and a /v1 client on it, usable once the file's tests run. */
export interface ServedApp {
  /** http://127.0.0.1:<port> */
  readonly url: string;
  readonly api: ReturnType<typeof apiClient>;
}

/**
 * Serves the built app to the calling test file: started before its tests (after any env the file set at its top),
 * closed after them. Call it at the file's top level, before the file's own hooks that use it.
 */
export function serveAppForFile(): ServedApp {
  let server: Awaited<ReturnType<typeof startTestServer>> | undefined;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });
  const url = () => {
    if (!server) throw new Error("the app is served once the test file's first beforeAll has run");
    return server.url;
  };
  return {
    get url() {
      return url();
    },
    api: (method, path, options) => apiClient(url())(method, path, options),
  };
}
