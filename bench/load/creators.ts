// The load bench's creators: each one a loop doing what the site's upload dialog and dashboard do
// (SPEC §4): sign in, create an item, get its upload link, PUT a 5–20 MB model, report its size, open and
// edit it; every third round also a video scan (create, link, PUT, request the scan, poll its status).
// A request that gets no answer (the web process was killed) is sent again, as a browser's retry would.
import { createHash, randomFillSync } from "node:crypto";
import type { LatencyBook } from "./latency-book";

export interface CreatorAccount {
  email: string;
  password: string;
  userId: string;
}

export interface AcknowledgedUpload {
  itemId: string;
  owner: CreatorAccount;
  size: number;
  sha256: string;
}

export interface ScanRequest {
  itemId: string;
  owner: CreatorAccount;
  /** Answered 200 (the creator was told the scan started). */
  acknowledged: boolean;
  /** At least one attempt got no answer (so the scan may exist without the creator knowing). */
  answerLost: boolean;
}

export interface CreatorsOutcome {
  uploads: AcknowledgedUpload[];
  scans: ScanRequest[];
  rounds: number;
  failedRounds: string[];
  maxConcurrentPuts: number;
}

const MB = 1024 * 1024;

/**
 * What fetch says of a request that got no answer (the socket's code or message under its TypeError), and roughly
 * when: at once (a reused connection the server had closed) or late (a timeout).
 */
function whyUnanswered(error: unknown, afterMs: number): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const after = afterMs < 1_000 ? "under 1 s" : afterMs < 60_000 ? "1–60 s" : afterMs < 300_000 ? "60–300 s" : "300 s or more";
  return `${[cause?.code, cause?.message ?? (error as Error).message].filter(Boolean).join(" ")} (${after} after sending)`;
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A valid GLB of about `bytes` bytes whose binary chunk is random (so every upload is unique). */
export function randomGlb(bytes: number): Buffer<ArrayBuffer> {
  let binLength = bytes;
  let json = "";
  for (let i = 0; i < 2; i++) {
    json = JSON.stringify({
      asset: { version: "2.0", generator: "scanroom load bench" },
      buffers: [{ byteLength: binLength }],
    });
    json += " ".repeat((4 - (json.length % 4)) % 4);
    binLength = Math.floor((bytes - 12 - 8 - json.length - 8) / 4) * 4;
  }
  const glb = Buffer.from(new ArrayBuffer(12 + 8 + json.length + 8 + binLength));
  glb.writeUInt32LE(0x46546c67, 0); // "glTF"
  glb.writeUInt32LE(2, 4);
  glb.writeUInt32LE(glb.length, 8);
  glb.writeUInt32LE(json.length, 12);
  glb.writeUInt32LE(0x4e4f534a, 16); // "JSON"
  glb.write(json, 20, "ascii");
  const bin = 20 + json.length;
  glb.writeUInt32LE(binLength, bin);
  glb.writeUInt32LE(0x004e4942, bin + 4); // "BIN\0"
  randomFillSync(glb, bin + 8);
  return glb;
}

interface Answer {
  status: number;
  json: { data?: Record<string, unknown>; message?: string } | null;
}

export async function runCreators({
  origin,
  accounts,
  signIn,
  until,
  retryUntil,
  book,
  video,
}: {
  origin: string;
  accounts: CreatorAccount[];
  /** A fresh ID token from the identity provider (the Auth emulator). */
  signIn: (account: CreatorAccount) => Promise<string>;
  /** No new round starts after this time (ms since the epoch). */
  until: number;
  /** A request without an answer is sent again until this time. */
  retryUntil: number;
  book: LatencyBook;
  /** A short 16:9 video the scans are requested on. */
  video: Uint8Array<ArrayBuffer>;
}): Promise<CreatorsOutcome> {
  const outcome: CreatorsOutcome = {
    uploads: [],
    scans: [],
    rounds: 0,
    failedRounds: [],
    maxConcurrentPuts: 0,
  };
  let putsInFlight = 0;

  /** One request, timed under `kind`; sent again while it gets no answer (until `retryUntil`). */
  async function send(kind: string, url: string, init: RequestInit, onNoAnswer?: () => void): Promise<Answer> {
    for (;;) {
      const started = performance.now();
      try {
        const res = await fetch(url, init);
        const text = await res.text();
        book.answered(kind, performance.now() - started, res.status);
        let json: Answer["json"] = null;
        try {
          json = text ? JSON.parse(text) : null;
        } catch {
          json = null;
        }
        return { status: res.status, json };
      } catch (error) {
        book.unanswered(kind, whyUnanswered(error, performance.now() - started));
        onNoAnswer?.();
        if (Date.now() > retryUntil) throw error;
        await sleep(250);
      }
    }
  }

  function api(token: string) {
    return (kind: string, method: string, path: string, body?: unknown, onNoAnswer?: () => void) =>
      send(
        kind,
        `${origin}/v1${path}`,
        {
          method,
          headers: {
            Authorization: `Bearer ${token}`,
            "Content-Type": "application/json",
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        },
        onNoAnswer,
      );
  }

  function expect200(answer: Answer, what: string): Record<string, unknown> {
    if (answer.status !== 200) throw new Error(`${what}: ${answer.status} ${answer.json?.message ?? ""}`);
    return answer.json?.data ?? {};
  }

  async function put(kind: string, url: string, body: Uint8Array<ArrayBuffer>, contentType: string): Promise<void> {
    putsInFlight++;
    outcome.maxConcurrentPuts = Math.max(outcome.maxConcurrentPuts, putsInFlight);
    try {
      const answer = await send(kind, url, {
        method: "PUT",
        body,
        headers: { "Content-Type": contentType },
      });
      if (answer.status !== 200) throw new Error(`${kind}: ${answer.status}`);
    } finally {
      putsInFlight--;
    }
  }

  async function createItem(call: ReturnType<typeof api>, body: { model_type: string; upload_type: string; name: string }): Promise<string> {
    return String(expect200(await call("create item", "POST", "/item", body), "create item").item_id);
  }

  async function modelRound(call: ReturnType<typeof api>, owner: CreatorAccount, round: number) {
    const itemId = await createItem(call, { model_type: "glb", upload_type: "model", name: `Load ${round}` });
    const link = expect200(await call("upload link", "GET", `/upload/item/${itemId}?uploadType=model`), "upload link");
    const glb = randomGlb(Math.round((5 + Math.random() * 15) * MB));
    await put("upload PUT (5–20 MB model)", String(link.url), glb, "model/gltf-binary");
    expect200(await call("report file size", "POST", `/item/${itemId}/file/size`, { file_size: glb.length }), "report file size");
    outcome.uploads.push({ itemId, owner, size: glb.length, sha256: createHash("sha256").update(glb).digest("hex") });
    expect200(await call("open item", "GET", `/item/${itemId}`), "open item");
    expect200(await call("edit item", "PATCH", `/item/${itemId}`, { name: `Load ${round} (edited)`, description: "Made under load." }), "edit item");
    expect200(await call("dashboard list", "GET", "/items?owner=me&limit=24"), "dashboard list");
  }

  async function scanRound(call: ReturnType<typeof api>, owner: CreatorAccount, round: number) {
    const itemId = await createItem(call, { model_type: "ply", upload_type: "video", name: `Load scan ${round}` });
    const link = expect200(await call("upload link", "GET", `/upload/video/${itemId}?size=${video.length}&filename=clip.mp4`), "video upload link");
    await put("upload PUT (video)", String(link.url), video, "video/mp4");
    const request: ScanRequest = {
      itemId,
      owner,
      acknowledged: false,
      answerLost: false,
    };
    outcome.scans.push(request);
    const body = {
      duration: 2,
      width: 320,
      height: 180,
      input_bucket_path: String(link.path),
    };
    const answer = await call("request scan", "POST", `/scan/video/${itemId}`, body, () => (request.answerLost = true));
    request.acknowledged = answer.status === 200;
    // A lost answer whose scan did start: the retry is told so (409), which is not a failure of the round.
    if (!request.acknowledged && !(request.answerLost && answer.status === 409))
      throw new Error(`request scan: ${answer.status} ${answer.json?.message ?? ""}`);
    for (let i = 0; i < 3; i++) {
      await sleep(1000);
      expect200(await call("scan status", "GET", `/scan/${itemId}`), "scan status");
    }
  }

  async function creator(owner: CreatorAccount) {
    let token = "";
    for (let round = 1; Date.now() < until; round++) {
      try {
        if (round % 10 === 1) {
          token = await signIn(owner);
          expect200(
            await send("sign in (POST /session)", `${origin}/session`, {
              method: "POST",
              headers: { "Content-Type": "application/json" },
              body: JSON.stringify({ idToken: token }),
            }),
            "sign in",
          );
          expect200(await api(token)("profile (GET /v1/user)", "GET", "/user"), "profile");
        }
        const call = api(token);
        await modelRound(call, owner, round);
        if (round % 3 === 0) await scanRound(call, owner, round);
        outcome.rounds++;
      } catch (error) {
        outcome.failedRounds.push(`${owner.email} round ${round}: ${(error as Error).message}`);
      }
      // Between rounds a creator looks at the result for a while.
      await sleep(2000 + Math.random() * 6000);
    }
  }

  await Promise.all(accounts.map((account) => creator(account)));
  return outcome;
}
