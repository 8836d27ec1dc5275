import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { S3Storage } from "~/storage/s3.server";
import { apiClient } from "../setup/api";
import { s3AppEnv, s3TestConfig } from "../setup/config";
import { startGoogleEdge } from "../setup/google-edge";
import { SHARED_DATA } from "../setup/shared-data";
import { startTestServer } from "../setup/test-server";

// The real server in SCANROOM_PROFILE=production: S3 storage, secrets made for this run, no Auth
// emulator. Firebase ID tokens are verified by firebase-admin as in production — signing
// certificates, service-account access token and the account lookup come over TLS from a stand-in
// for Google at the network edge (tests/setup/google-edge.ts), the only fake.
const PROJECT_ID = "scanroom-production-test";
const edge = await startGoogleEdge({ projectId: PROJECT_ID });
const secret = () => randomBytes(32).toString("base64url");
delete process.env.FIREBASE_AUTH_EMULATOR_HOST; // set for every test file by per-file-database.ts
Object.assign(process.env, s3AppEnv(), {
  SCANROOM_PROFILE: "production",
  FIREBASE_PROJECT_ID: PROJECT_ID,
  FIREBASE_API_KEY: secret(),
  GOOGLE_APPLICATION_CREDENTIALS: edge.credentialsFile,
  SESSION_SECRET: secret(),
  STORAGE_SIGNING_SECRET: secret(),
  MODEL_XOR_KEY: secret(),
  SHOPIFY_API_KEY: secret(),
  SHOPIFY_API_SECRET: secret(),
});
const catGlb = readFileSync(path.join(SHARED_DATA, "models/cat.glb"));
const bucket = new S3Storage(s3TestConfig());

let server: Awaited<ReturnType<typeof startTestServer>>;
let api: ReturnType<typeof apiClient>;
beforeAll(async () => {
  server = await startTestServer();
  api = apiClient(server.url);
});
afterAll(async () => {
  await server?.close();
  await edge.stop();
});

describe("the production profile", () => {
  it("runs as production", async () => {
    const { env } = await import("~/env.server");
    expect(env()).toMatchObject({ isProduction: true, STORAGE_DRIVER: "s3" });
    expect(env().FIREBASE_AUTH_EMULATOR_HOST).toBeUndefined();
  });

  it("carries the model-file journey: create → upload link → PUT to S3 → file/size → ready → GET file", async () => {
    const { idToken } = edge.signIn({ email: `owner-${randomBytes(4).toString("hex")}@example.com` });
    const user = await api("GET", "/user", { token: idToken });
    expect(user.status).toBe(200);
    expect(user.json.data.user).toMatchObject({ email_verified: true });

    const created = await api("POST", "/item", { token: idToken, body: { model_type: "glb", upload_type: "model", name: "cat" } });
    expect(created.status).toBe(200);
    const itemId: string = created.json.data.item_id;
    const link = await api("GET", `/upload/item/${itemId}?uploadType=model`, { token: idToken });
    expect(link.status).toBe(200);
    expect(link.json.data.url.startsWith(`${s3TestConfig().endpoint}/`)).toBe(true);
    expect((await fetch(link.json.data.url, { method: "PUT", body: catGlb })).status).toBe(200);
    const size = await api("POST", `/item/${itemId}/file/size`, { token: idToken, body: { size: catGlb.length } });
    expect(size.status).toBe(200);
    expect(size.json.data).toMatchObject({ status: "ready", file_size: catGlb.length });
    expect((await bucket.stat(link.json.data.path))?.size).toBe(catGlb.length);

    const file = await fetch(`${server.url}/v1/item/${itemId}/file?original=true`, { headers: { Authorization: `Bearer ${idToken}` } });
    expect(file.status).toBe(200);
    const bytes = new Uint8Array(await file.arrayBuffer());
    const xor = new TextEncoder().encode(process.env.MODEL_XOR_KEY!);
    expect(Buffer.from(bytes.map((b, i) => b ^ xor[i % xor.length])).equals(catGlb)).toBe(true);

    // firebase-admin went to Google for the keys, an access token and the account lookup.
    expect(edge.seen).toEqual(
      expect.arrayContaining([
        "GET www.googleapis.com/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com",
        "POST oauth2.googleapis.com/token",
        `POST identitytoolkit.googleapis.com/v1/projects/${PROJECT_ID}/accounts:lookup`,
      ]),
    );
  });

  it("refuses tokens Google did not sign, expired ones, and those of disabled or revoked accounts", async () => {
    const email = `someone-${randomBytes(4).toString("hex")}@example.com`;
    const good = edge.signIn({ email });
    expect((await api("GET", "/user", { token: good.idToken })).status).toBe(200);
    expect((await api("GET", "/user", { token: edge.forged(good.uid, email) })).status).toBe(401);
    expect((await api("GET", "/user", { token: edge.signIn({ email: `late-${email}` }, { expiresInSeconds: -10 }).idToken })).status).toBe(401);

    const revoked = edge.signIn({ email: `revoked-${email}` });
    expect((await api("GET", "/user", { token: revoked.idToken })).status).toBe(200);
    edge.update(revoked.uid, { validSince: Math.floor(Date.now() / 1000) + 1 });
    expect((await api("GET", "/user", { token: revoked.idToken })).status).toBe(401);

    const disabled = edge.signIn({ email: `disabled-${email}` });
    edge.update(disabled.uid, { disabled: true });
    const answer = await api("GET", "/user", { token: disabled.idToken });
    expect(answer.status).toBe(401);
    expect(answer.json).toMatchObject({ status: 401, error: "unauthorized" });
  });
});
