/**
 * Reads and discards what is left of a request body (up to a cap), so that a refusal sent before
 * the upload finished reaches the client as a response instead of a reset connection.
 */
export async function drainBody(body: ReadableStream<Uint8Array> | null, capBytes = 256 * 1024 * 1024): Promise<void> {
  if (!body) return;
  await drainReader(body.getReader(), capBytes);
}

/** The same for a body whose reader is already taken (a reader stopped part-way by a size limit). */
export async function drainReader(reader: ReadableStreamDefaultReader<Uint8Array>, capBytes: number): Promise<void> {
  let seen = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      seen += value.length;
      if (seen > capBytes) {
        await reader.cancel();
        return;
      }
    }
  } catch {
    // the client went away: nothing to drain
  }
}
