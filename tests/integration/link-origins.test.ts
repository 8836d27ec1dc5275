// Links never carry a host the client made up (docs/decisions/039): every answer that holds a link, a
// redirect or a signed URL builds it on APP_URL unless the request came to an allowed host (the local
// profile's loopback names of the port, legacy hosts); X-Forwarded-* count only from a configured proxy.
// Requests are raw HTTP (fetch cannot set Host) to the real built server; 127.0.0.2 plays the proxy.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../setup/api";
import { EMULATOR_HOST } from "../setup/config";
import { createIdentity, type TestIdentity } from "../setup/firebase-users";
import { hostRequest } from "../setup/host-request";
import { rawPut } from "../setup/raw-put";
import { SHARED_DATA } from "../setup/shared-data";
import { startTestServer } from "../setup/test-server";
import { uploadReadyModel } from "../setup/upload-model";

const glb = readFileSync(path.join(SHARED_DATA, "models/SpecularTest.glb"));
const PROXY = "127.0.0.2";
const FORGED = "evil.test";

let server: Awaited<ReturnType<typeof startTestServer>>;
let api: ReturnType<typeof apiClient>;
let alice: TestIdentity;
let port: string;
let publicItemId: string;

beforeAll(async () => {
  process.env.TRUSTED_PROXIES = PROXY;
  server = await startTestServer();
  port = new URL(server.url).port;
  api = apiClient(server.url);
  alice = await createIdentity({ name: "Alice" });
  publicItemId = await uploadReadyModel(api, alice, { bytes: glb, modelType: "glb", name: "Lamp", visibility: "public" });
});

afterAll(async () => {
  await server?.close();
});

/** Every way a client can name another host: Host itself, X-Forwarded-Host sent directly, and through the configured proxy. */
function forgeries(): Array<{ name: string; from: string; headers: Record<string, string> }> {
  return [
    { name: "Host", from: "127.0.0.1", headers: { Host: FORGED } },
    { name: "Host with the server's port", from: "127.0.0.1", headers: { Host: `${FORGED}:${port}` } },
    { name: "X-Forwarded-Host from a client", from: "127.0.0.1", headers: { "X-Forwarded-Host": FORGED, "X-Forwarded-Proto": "https" } },
    { name: "X-Forwarded-Host passed on by the proxy", from: PROXY, headers: { "X-Forwarded-Host": FORGED, "X-Forwarded-Proto": "https" } },
  ];
}

/** The absolute URLs in an answer (JSON strings, HTML attributes, embed code). */
const absoluteUrls = (text: string) => text.match(/https?:\/\/[^\s"'<>\\]+/g) ?? [];

/** What every forged request must observe: no trace of the forged host, and every link on APP_URL. */
function expectLinksOnAppUrl(answer: { status: number; text: string; headers: Record<string, unknown> }, what: string) {
  expect(answer.status, `${what}: ${answer.text.slice(0, 300)}`).toBeLessThan(400);
  expect(answer.text, what).not.toContain(FORGED);
  expect(String(answer.headers.location ?? ""), what).not.toContain(FORGED);
  const urls = absoluteUrls(answer.text);
  for (const url of urls) expect(new URL(url).origin, `${what}: ${url}`).toBe(server.url);
  return urls;
}

describe("forged Host and X-Forwarded-Host never reach a link", () => {
  it("upload links (model, avatar, thumbnail) are signed on APP_URL", async () => {
    for (const forgery of forgeries()) {
      const created = await api("POST", "/item", { token: alice.idToken, body: { model_type: "glb", upload_type: "model" } });
      const itemId = created.json.data.item_id as string;
      const calls = [
        ["GET", `/v1/upload/item/${itemId}?uploadType=model`],
        ["POST", "/v1/user/avatar"],
        ["POST", `/v1/item/${itemId}/thumbnail`],
      ];
      for (const [method, call] of calls) {
        const answer = await hostRequest(server.url, call, { method, token: alice.idToken, ...forgery });
        const urls = expectLinksOnAppUrl(answer, `${forgery.name}: ${method} ${call}`);
        expect(new URL(answer.json.data.url).origin).toBe(server.url);
        expect(urls.length).toBeGreaterThan(0);
      }
    }
  });

  it("download links are signed on APP_URL", async () => {
    for (const forgery of forgeries()) {
      const answer = await hostRequest(server.url, `/v1/item/${publicItemId}/downloads`, { token: alice.idToken, ...forgery });
      expectLinksOnAppUrl(answer, forgery.name);
      expect(answer.json.data.files.length).toBeGreaterThan(0);
      for (const file of answer.json.data.files) expect(new URL(file.url).origin).toBe(server.url);
    }
  });

  it("share links and embeds, made and listed, the viewer's JSON and oEmbed are on APP_URL", async () => {
    const [first] = forgeries();
    const share = await hostRequest(server.url, `/v1/item/${publicItemId}/share`, { method: "POST", body: {}, token: alice.idToken, ...first });
    expect(new URL(share.json.data.url).origin).toBe(server.url);
    expectLinksOnAppUrl(share, "POST share");
    const embed = await hostRequest(server.url, `/v1/item/${publicItemId}/embed`, { method: "POST", body: {}, token: alice.idToken, ...first });
    expect(new URL(embed.json.data.url).origin).toBe(server.url);
    expectLinksOnAppUrl(embed, "POST embed");
    const oembedUrl = encodeURIComponent(`${server.url}/item/${publicItemId}`);
    for (const forgery of forgeries()) {
      for (const call of [`/v1/item/${publicItemId}/share`, `/v1/item/${publicItemId}/embed`, `/v1/item/${publicItemId}/viewer`, `/oembed?url=${oembedUrl}`]) {
        const urls = expectLinksOnAppUrl(await hostRequest(server.url, call, { token: alice.idToken, ...forgery }), `${forgery.name}: ${call}`);
        expect(urls.length, call).toBeGreaterThan(0);
      }
    }
  });

  it("the model page and the embed page name no forged host", async () => {
    for (const forgery of forgeries()) {
      for (const page of [`/item/${publicItemId}`, `/embed/${publicItemId}`]) {
        const answer = await hostRequest(server.url, page, forgery);
        expect(answer.status, page).toBe(200);
        expect(answer.text, `${forgery.name}: ${page}`).not.toContain(FORGED);
        expect(answer.text, page).toContain(`${server.url}/item/${publicItemId}`);
      }
    }
  });

  it("redirects (sign-in, unknown pages, legacy paths) name no forged host", async () => {
    for (const forgery of forgeries()) {
      for (const page of ["/dashboard", "/no/such/page", "/dgs2/"]) {
        const answer = await hostRequest(server.url, page, forgery);
        expect([301, 302], page).toContain(answer.status);
        const location = String(answer.headers.location);
        expect(location, `${forgery.name}: ${page}`).not.toContain(FORGED);
        // Relative, or on APP_URL.
        expect(new URL(location, server.url).origin, page).toBe(server.url);
      }
    }
  });

  it("e-mail verification and password reset links name no forged host", async () => {
    const bob = await createIdentity({ name: "Bob", verified: false });
    const emulator = `http://${EMULATOR_HOST}/identitytoolkit.googleapis.com/v1/accounts:sendOobCode?key=fake-api-key`;
    for (const body of [{ requestType: "VERIFY_EMAIL", idToken: bob.idToken }, { requestType: "PASSWORD_RESET", email: bob.email }]) {
      const sent = await fetch(emulator, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
      expect(sent.status).toBe(200);
    }
    for (const forgery of forgeries()) {
      for (const purpose of ["verify", "reset"]) {
        const answer = await hostRequest(server.url, `/auth/local-verification-link?email=${encodeURIComponent(bob.email)}&purpose=${purpose}`, forgery);
        expect(answer.status).toBe(200);
        const link = answer.json.data.link as string;
        expect(link, purpose).toBeTruthy();
        expect(link, `${forgery.name}: ${purpose}`).not.toContain(FORGED);
        if (purpose === "reset") expect(link.startsWith("/auth?mode=resetPassword&oobCode=")).toBe(true);
      }
    }
  });
});

describe("allowed hosts still get links on themselves", () => {
  const uploadLink = async (options: { from?: string; headers?: Record<string, string> }) => {
    const created = await api("POST", "/item", { token: alice.idToken, body: { model_type: "glb", upload_type: "model" } });
    const answer = await hostRequest(server.url, `/v1/upload/item/${created.json.data.item_id}?uploadType=model`, { token: alice.idToken, ...options });
    expect(answer.status).toBe(200);
    return new URL(answer.json.data.url);
  };

  it("127.0.0.1, localhost and [::1] on the configured port (local profile)", async () => {
    expect((await uploadLink({ headers: { Host: `127.0.0.1:${port}` } })).origin).toBe(`http://127.0.0.1:${port}`);
    expect((await uploadLink({ headers: { Host: `localhost:${port}` } })).origin).toBe(`http://localhost:${port}`);
    expect((await uploadLink({ headers: { Host: `[::1]:${port}` } })).origin).toBe(`http://[::1]:${port}`);
    // Another port on a loopback name is not this server.
    expect((await uploadLink({ headers: { Host: "localhost:1" } })).origin).toBe(server.url);
  });

  it("share links, embed codes and the model page's share link are on the allowed host the page was opened at (decision 047)", async () => {
    const carol = await createIdentity({ name: "Carol" });
    const itemId = await uploadReadyModel(api, carol, { bytes: glb, modelType: "glb", name: "Vase", visibility: "unlisted" });
    const origin = `http://127.0.0.1:${port}`;
    const at = { token: carol.idToken, headers: { Host: `127.0.0.1:${port}` } };
    const share = await hostRequest(server.url, `/v1/item/${itemId}/share`, { method: "POST", body: {}, ...at });
    expect(share.status, share.text).toBeLessThan(300);
    expect(share.json.data.url).toMatch(new RegExp(`^${origin}/s/`));
    const embed = await hostRequest(server.url, `/v1/item/${itemId}/embed`, { method: "POST", body: {}, ...at });
    expect(embed.json.data.url).toMatch(new RegExp(`^${origin}/embed/${itemId}\\?`));
    expect(embed.json.data.code).toContain(`src="${origin}/embed/${itemId}?`);
    const page = await hostRequest(server.url, `/item/${itemId}`, { headers: at.headers });
    expect(page.text).toContain(`"shareOrigin":"${origin}"`);
    // At APP_URL's own host they stay on APP_URL.
    const listed = await hostRequest(server.url, `/v1/item/${itemId}/share`, { token: carol.idToken });
    expect(listed.json.data.links[0].url).toMatch(new RegExp(`^${server.url}/s/`));
  });

  it("the configured proxy's X-Forwarded-Host and -Proto name an allowed host; the signed path works against the server", async () => {
    const forwarded = { "X-Forwarded-Host": `localhost:${port}`, "X-Forwarded-Proto": "https" };
    const url = await uploadLink({ from: PROXY, headers: forwarded });
    expect(url.origin).toBe(`https://localhost:${port}`);
    const put = await rawPut(`${server.url}${url.pathname}${url.search}`, glb);
    if (put === "reset" || put === "aborted") throw new Error(`the PUT got no answer (${put})`);
    expect(put.status).toBe(200);
    // The same headers from a client that is not the proxy are ignored: its Host counts.
    expect((await uploadLink({ headers: forwarded })).origin).toBe(server.url);
  });
});
