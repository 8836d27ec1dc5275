import { Readable, Transform } from "node:stream";
import { describe, expect, it } from "vitest";
import { webStreamOf } from "./web-stream.server";

const upper = () =>
  new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      callback(null, Buffer.from(chunk.toString("utf8").toUpperCase()));
    },
  });

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

describe("webStreamOf", () => {
  it("passes the bytes through the transforms", async () => {
    expect(await readAll(webStreamOf(Readable.from([Buffer.from("abc"), Buffer.from("def")]), upper()))).toBe("ABCDEF");
  });

  it("ends the body with an error, without an unhandled 'error' event, when the file fails mid-read", async () => {
    const failing = new Readable({
      read() {
        this.push(Buffer.from("abc"));
        this.destroy(new Error("EIO: the disk went away"));
      },
    });
    const transform = upper();
    await expect(readAll(webStreamOf(failing, transform))).rejects.toThrow();
    expect(transform.destroyed).toBe(true);
  });

  it("survives a body cancelled with a reason (destroy(reason) emits 'error' after the adapter stopped listening)", async () => {
    const source = new Readable({ read() {} });
    source.push(Buffer.from("first"));
    const body = webStreamOf(source);
    const reader = body.getReader();
    await reader.read();
    await reader.cancel(new Error("client went away"));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(source.destroyed).toBe(true);
  });
});
