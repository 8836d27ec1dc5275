import { createReadableStreamFromReadable } from "@remix-run/node";
import { pipeline, type Readable, type Transform } from "node:stream";

/**
 * A response body from a Node stream (a stored file), optionally through transforms (the XOR
 * obfuscation), that can never crash the process (issue 21): the streams are joined with
 * `pipeline` (an error in any of them destroys all and closes the file), and each keeps an 'error'
 * listener for its whole life. Remix's adapter listens only once and stops listening when the body
 * is cancelled, and `destroy(reason)` then emits 'error' again; without our listener that would be
 * an unhandled 'error' event. The error still reaches the response: its body ends with an error.
 */
export function webStreamOf(source: Readable, ...transforms: Transform[]): ReadableStream<Uint8Array> {
  const streams = [source, ...transforms];
  for (const stream of streams) stream.on("error", () => undefined);
  if (transforms.length > 0) pipeline(streams, () => undefined);
  return createReadableStreamFromReadable(streams[streams.length - 1]);
}
