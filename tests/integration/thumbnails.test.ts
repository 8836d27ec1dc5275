// Automatic thumbnails (issue 18 item 2): an uploaded .glb and .ply get a thumbnail rendered from the model
// itself, without the owner doing anything; an owner's own thumbnail is never replaced. A turntable video on request.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { createIdentity, type TestIdentity } from "../setup/firebase-users";
import { serveAppForFile } from "../setup/served-app";
import { SHARED_DATA } from "../setup/shared-data";
import { waitFor } from "../setup/wait-for";

const BACKGROUND = [0x1e, 0x1f, 0x22];

const app = serveAppForFile();
const api = app.api;
let alice: TestIdentity;

beforeAll(async () => {
  alice = await createIdentity({ name: "Alice" });
});

async function uploadModel(file: string, modelType: "glb" | "ply", name: string): Promise<string> {
  const bytes = readFileSync(file);
  const created = await api("POST", "/item", { token: alice.idToken, body: { model_type: modelType, upload_type: "model", name } });
  expect(created.status).toBe(200);
  const itemId: string = created.json.data.item_id;
  const link = await api("GET", `/upload/item/${itemId}?uploadType=model`, { token: alice.idToken });
  expect((await fetch(link.json.data.url, { method: "PUT", body: new Uint8Array(bytes) })).status).toBe(200);
  expect((await api("POST", `/item/${itemId}/file/size`, { token: alice.idToken, body: { size: bytes.length } })).status).toBe(200);
  return itemId;
}

/** Share of pixels that differ clearly from the viewer's background. */
async function modelShare(image: Buffer): Promise<number> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let differing = 0;
  for (let i = 0; i < data.length; i += 3) {
    if (Math.abs(data[i] - BACKGROUND[0]) + Math.abs(data[i + 1] - BACKGROUND[1]) + Math.abs(data[i + 2] - BACKGROUND[2]) > 40) differing++;
  }
  return differing / (info.width * info.height);
}

describe("automatic thumbnails", () => {
  it.each([
    { file: "models/cat.glb", type: "glb" as const, name: "cat" },
    { file: "splats/guitar.ply", type: "ply" as const, name: "guitar" },
  ])("an uploaded $name .$type gets a 640×480 thumbnail of the model without the owner acting", { timeout: 120_000 }, async ({ file, type, name }) => {
    const itemId = await uploadModel(path.join(SHARED_DATA, file), type, name);
    const url = await waitFor(
      `the thumbnail of ${name}`,
      async () => (await api("GET", `/item/${itemId}`, { token: alice.idToken })).json.data.thumbnail_url as string | null,
      90_000,
    );
    const response = await fetch(`${app.url}${url}`, { headers: { Authorization: `Bearer ${alice.idToken}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/webp");
    const image = Buffer.from(await response.arrayBuffer());
    const meta = await sharp(image).metadata();
    expect([meta.width, meta.height]).toEqual([640, 480]);
    const share = await modelShare(image);
    console.warn(`[thumbnails] ${name}: ${(share * 100).toFixed(1)} % of the thumbnail shows the model (bound: > 2 %)`);
    expect(share).toBeGreaterThan(0.02);
  });

  it("never replaces a thumbnail the owner chose", { timeout: 120_000 }, async () => {
    const itemId = await uploadModel(path.join(SHARED_DATA, "models/cat.glb"), "glb", "cat mine");
    await waitFor("the automatic thumbnail", async () => (await api("GET", `/item/${itemId}`, { token: alice.idToken })).json.data.thumbnail_url, 90_000);
    // The owner's own image ("use this view" uploads one the same way).
    const link = await api("POST", `/item/${itemId}/thumbnail`, { token: alice.idToken });
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#ff0000" } }).png().toBuffer();
    expect((await fetch(link.json.data.url, { method: "PUT", body: new Uint8Array(png) })).status).toBe(200);
    const chosen = (await api("PUT", `/item/${itemId}/thumbnail`, { token: alice.idToken, body: { path: link.json.data.path } })).json.data.thumbnail_url;
    // The job for the same file running again (a retry, a late duplicate) leaves it.
    const { createItemThumbnail, thumbnailSource } = await import("~/domain/item-thumbnails.server");
    const { db } = await import("~/db.server");
    const item = await db().item.findUniqueOrThrow({ where: { id: itemId } });
    const outcome = await createItemThumbnail({ itemId, sourceKey: thumbnailSource(item)!.key });
    expect(outcome).toEqual({ status: "skipped", reason: "the owner chose the thumbnail" });
    expect((await api("GET", `/item/${itemId}`, { token: alice.idToken })).json.data.thumbnail_url).toBe(chosen);
  });
});

describe("turntables (issue 35 item 2)", () => {
  it("its owner has a model's turntable made: an H.264 MP4 of 48 frames at 12 fps, a looping GIF and a JPEG poster, served to whoever sees the model, by byte ranges too", { timeout: 180_000 }, async () => {
    const itemId = await uploadModel(path.join(SHARED_DATA, "models/cat.glb"), "glb", "Turning cat");
    const bob = await createIdentity({ name: "Bob" });
    expect((await api("POST", `/item/${itemId}/turntable`, { token: bob.idToken })).status).toBe(404); // not his
    const asked = await api("POST", `/item/${itemId}/turntable`, { token: alice.idToken });
    expect(asked.status).toBe(200);
    expect(asked.json.data).toMatchObject({ state: "rendering", mp4_url: null });
    const again = await api("POST", `/item/${itemId}/turntable`, { token: alice.idToken });
    expect(again.json).toMatchObject({ status: 409, message: "The turntable is being made." });
    const turntable = await waitFor(
      "the turntable",
      async () => {
        const t = (await api("GET", `/item/${itemId}`, { token: alice.idToken })).json.data.turntable;
        if (t.state === "failed") throw new Error(`the turntable failed: ${t.error}`);
        return t.state === "ready" ? (t as { mp4_url: string; gif_url: string; poster_url: string }) : null;
      },
      150_000,
    );
    const owner = { headers: { Authorization: `Bearer ${alice.idToken}` } };
    const mp4 = await fetch(`${app.url}${turntable.mp4_url}`, owner);
    expect(mp4.status).toBe(200);
    expect(mp4.headers.get("content-type")).toBe("video/mp4");
    const video = Buffer.from(await mp4.arrayBuffer());
    const dir = mkdtempSync(path.join(os.tmpdir(), "turntable-test-"));
    writeFileSync(path.join(dir, "t.mp4"), video);
    const probe = JSON.parse(
      execFileSync("ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries", "stream=codec_name,width,height,nb_read_frames,r_frame_rate", "-of", "json", path.join(dir, "t.mp4")]).toString(),
    ).streams[0];
    process.stdout.write(`turntable MP4: ${video.length} bytes, ${JSON.stringify(probe)}\n`);
    expect(probe).toMatchObject({ codec_name: "h264", width: 480, height: 360, nb_read_frames: "48", r_frame_rate: "12/1" });
    // The model turns: the first and the middle frame differ, and both show it (not the bare background).
    const frame = (n: number) => execFileSync("ffmpeg", ["-v", "error", "-i", path.join(dir, "t.mp4"), "-vf", `select=eq(n\\,${n})`, "-frames:v", "1", "-f", "image2pipe", "-vcodec", "png", "-"]);
    const [first, middle] = [frame(0), frame(24)];
    expect(await modelShare(first)).toBeGreaterThan(0.02);
    expect(await modelShare(middle)).toBeGreaterThan(0.02);
    const { data: a } = await sharp(first).raw().toBuffer({ resolveWithObject: true });
    const { data: b } = await sharp(middle).raw().toBuffer({ resolveWithObject: true });
    let changed = 0;
    for (let i = 0; i < a.length; i++) if (Math.abs(a[i] - b[i]) > 40) changed++;
    expect(changed / a.length).toBeGreaterThan(0.01);

    const gif = await fetch(`${app.url}${turntable.gif_url}&download=true`, owner);
    expect(gif.headers.get("content-type")).toBe("image/gif");
    expect(gif.headers.get("content-disposition")).toBe('attachment; filename="Turning cat turntable.gif"');
    const gifBytes = Buffer.from(await gif.arrayBuffer());
    expect(gifBytes.subarray(0, 6).toString("latin1")).toBe("GIF89a");
    expect(gifBytes.includes(Buffer.from("NETSCAPE2.0", "latin1"))).toBe(true); // loops
    const poster = await fetch(`${app.url}${turntable.poster_url}`, owner);
    expect(await sharp(Buffer.from(await poster.arrayBuffer())).metadata()).toMatchObject({ format: "jpeg", width: 480, height: 360 });

    // A video player asks for byte ranges.
    const part = await fetch(`${app.url}${turntable.mp4_url}`, { headers: { ...owner.headers, Range: "bytes=0-99" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 0-99/${video.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(video.subarray(0, 100))).toBe(true);

    // Private: nobody else sees it; public: everyone does.
    expect((await fetch(`${app.url}${turntable.mp4_url}`)).status).toBe(404);
    await api("PATCH", `/item/${itemId}`, { token: alice.idToken, body: { visibility: "public" } });
    expect((await fetch(`${app.url}${turntable.gif_url}`)).status).toBe(200);
    expect((await api("GET", `/item/${itemId}/turntable/avi`)).status).toBe(400);
  });
});
