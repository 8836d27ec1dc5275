import { execFileSync } from "node:child_process";
import { createPublicKey, createSign, createVerify, generateKeyPairSync, randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import https from "node:https";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import tls from "node:tls";

/**
 * Google at the network edge, for the production profile in tests. firebase-admin is used unchanged:
 * it fetches the ID-token signing certificates from www.googleapis.com, trades its service-account
 * key for an access token at oauth2.googleapis.com, and looks the account up at
 * identitytoolkit.googleapis.com (revocation check). Connections to those hosts from this process
 * are routed to a local HTTPS server whose certificate a per-run CA signs; TLS is verified against
 * that CA under the real host names. ID tokens are RS256 JWTs signed with a per-run key whose X.509
 * certificate the stand-in serves, as Google does. Nothing else is faked.
 */
const GOOGLE_HOSTS = ["www.googleapis.com", "oauth2.googleapis.com", "identitytoolkit.googleapis.com"];
const CERTS_PATH = "/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com";

export interface EdgeAccount {
  uid: string;
  email: string;
  emailVerified: boolean;
  disabled: boolean;
  /** Seconds since the epoch: tokens issued before this are revoked. */
  validSince: number;
}

const b64url = (value: Buffer | string) => Buffer.from(value).toString("base64url");

function openssl(args: string[], cwd: string) {
  execFileSync("openssl", args, { cwd, stdio: "pipe" });
}

export async function startGoogleEdge({ projectId }: { projectId: string }) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "scanroom-google-edge-"));
  // A CA, the stand-in's certificate for Google's host names, and the ID-token signing certificate.
  openssl(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "1", "-subj", "/CN=scanroom test CA"], dir);
  openssl(["req", "-newkey", "rsa:2048", "-nodes", "-keyout", "edge.key", "-out", "edge.csr", "-subj", "/CN=www.googleapis.com"], dir);
  writeFileSync(path.join(dir, "san.ext"), `subjectAltName=${GOOGLE_HOSTS.map((h) => `DNS:${h}`).join(",")}\n`);
  openssl(["x509", "-req", "-in", "edge.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "edge.pem", "-days", "1", "-extfile", "san.ext"], dir);
  openssl(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "signing.key", "-out", "signing.pem", "-days", "1", "-subj", "/CN=securetoken.system.gserviceaccount.com"], dir);
  const read = (name: string) => readFileSync(path.join(dir, name), "utf8");
  const ca = read("ca.pem");
  const signingKey = read("signing.key");
  const kid = randomBytes(20).toString("hex");
  const certificates = { [kid]: read("signing.pem") };

  // The service account the app authenticates as (GOOGLE_APPLICATION_CREDENTIALS).
  const serviceAccount = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const clientEmail = `scanroom@${projectId}.iam.gserviceaccount.com`;
  const credentialsFile = path.join(dir, "service-account.json");
  writeFileSync(
    credentialsFile,
    JSON.stringify({
      type: "service_account",
      project_id: projectId,
      private_key_id: randomBytes(8).toString("hex"),
      private_key: serviceAccount.privateKey.export({ type: "pkcs8", format: "pem" }),
      client_email: clientEmail,
      client_id: "1",
      token_uri: "https://oauth2.googleapis.com/token",
    }),
  );
  const accessTokens = new Set<string>();
  const accounts = new Map<string, EdgeAccount>();
  const seen: string[] = [];

  const verifyJwt = (jwt: string, key: string | ReturnType<typeof createPublicKey>) => {
    const [header, payload, signature] = jwt.split(".");
    const ok = createVerify("RSA-SHA256").update(`${header}.${payload}`).verify(key, Buffer.from(signature ?? "", "base64url"));
    return ok ? (JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Record<string, unknown>) : null;
  };

  const server = https.createServer({ key: read("edge.key"), cert: read("edge.pem") }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const host = req.headers.host ?? "";
      const url = new URL(req.url ?? "/", `https://${host}`);
      seen.push(`${req.method} ${host}${url.pathname}`);
      const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { "Content-Type": "application/json", ...headers });
        res.end(JSON.stringify(body));
      };
      const body = Buffer.concat(chunks).toString("utf8");
      if (host === "www.googleapis.com" && req.method === "GET" && url.pathname === CERTS_PATH) {
        return json(200, certificates, { "Cache-Control": "public, max-age=3600" });
      }
      if (host === "oauth2.googleapis.com" && req.method === "POST" && url.pathname === "/token") {
        const assertion = new URLSearchParams(body).get("assertion") ?? "";
        const claims = verifyJwt(assertion, serviceAccount.publicKey);
        if (!claims || claims.iss !== clientEmail || (claims.exp as number) * 1000 < Date.now()) {
          return json(400, { error: "invalid_grant", error_description: "Invalid JWT Signature." });
        }
        const token = `ya29.${randomBytes(24).toString("base64url")}`;
        accessTokens.add(token);
        return json(200, { access_token: token, expires_in: 3600, token_type: "Bearer" });
      }
      const lookup = `/v1/projects/${projectId}/accounts:lookup`;
      if (host === "identitytoolkit.googleapis.com" && req.method === "POST" && url.pathname === lookup) {
        const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
        if (!bearer || !accessTokens.has(bearer)) return json(401, { error: { code: 401, message: "UNAUTHENTICATED", status: "UNAUTHENTICATED" } });
        const ids = (JSON.parse(body || "{}") as { localId?: string[] }).localId ?? [];
        const users = ids.flatMap((id) => {
          const a = accounts.get(id);
          return a
            ? [{ localId: a.uid, email: a.email, emailVerified: a.emailVerified, disabled: a.disabled, validSince: String(a.validSince), providerUserInfo: [] }]
            : [];
        });
        return json(200, users.length ? { kind: "identitytoolkit#GetAccountInfoResponse", users } : { kind: "identitytoolkit#GetAccountInfoResponse" });
      }
      json(404, { error: { code: 404, message: `no such endpoint: ${req.method} ${host}${url.pathname}` } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.address() as AddressInfo).port;

  // The network edge: this process's TLS connections to Google's hosts reach the stand-in.
  const originalConnect = tls.connect;
  const routed = function connect(this: unknown, ...args: unknown[]) {
    const options = (typeof args[0] === "object" && args[0] !== null ? args[0] : typeof args[1] === "object" ? args[1] : null) as
      | (tls.ConnectionOptions & { host?: string })
      | null;
    const host = options?.servername || options?.host;
    if (options && !options.socket && host && GOOGLE_HOSTS.includes(host)) {
      const callback = args.find((a) => typeof a === "function") as (() => void) | undefined;
      return originalConnect({ ...options, host: "127.0.0.1", port, servername: host, ca }, callback);
    }
    return (originalConnect as (...a: unknown[]) => tls.TLSSocket).apply(this, args);
  } as typeof tls.connect;
  tls.connect = routed;

  return {
    credentialsFile,
    /** Requests the stand-in answered, as `METHOD host/path`. */
    seen,
    /** Registers an account and returns an ID token for it, signed as Firebase signs them. */
    signIn(account: Partial<EdgeAccount> & { email: string }, { expiresInSeconds = 3600 } = {}) {
      const now = Math.floor(Date.now() / 1000);
      const full: EdgeAccount = { uid: randomUUID().replace(/-/g, "").slice(0, 28), emailVerified: true, disabled: false, validSince: now - 60, ...account };
      accounts.set(full.uid, full);
      const header = b64url(JSON.stringify({ alg: "RS256", kid, typ: "JWT" }));
      const payload = b64url(
        JSON.stringify({
          iss: `https://securetoken.google.com/${projectId}`,
          aud: projectId,
          auth_time: now - 1,
          user_id: full.uid,
          sub: full.uid,
          iat: now - 1,
          exp: now + expiresInSeconds,
          email: full.email,
          email_verified: full.emailVerified,
          firebase: { identities: { email: [full.email] }, sign_in_provider: "password" },
        }),
      );
      const signature = createSign("RSA-SHA256").update(`${header}.${payload}`).sign(signingKey, "base64url");
      return { uid: full.uid, idToken: `${header}.${payload}.${signature}` };
    },
    /** Changes an account as the Firebase console would (disable, revoke sessions). */
    update(uid: string, change: Partial<EdgeAccount>) {
      const account = accounts.get(uid);
      if (account) accounts.set(uid, { ...account, ...change });
    },
    /** A token signed by a key Google never published (must be refused). */
    forged(uid: string, email: string) {
      const other = generateKeyPairSync("rsa", { modulusLength: 2048 });
      const now = Math.floor(Date.now() / 1000);
      const header = b64url(JSON.stringify({ alg: "RS256", kid, typ: "JWT" }));
      const payload = b64url(
        JSON.stringify({ iss: `https://securetoken.google.com/${projectId}`, aud: projectId, auth_time: now - 1, sub: uid, iat: now - 1, exp: now + 3600, email }),
      );
      const signature = createSign("RSA-SHA256").update(`${header}.${payload}`).sign(other.privateKey, "base64url");
      return `${header}.${payload}.${signature}`;
    },
    stop: async () => {
      tls.connect = originalConnect;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
