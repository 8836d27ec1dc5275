// A real S3-protocol server for tests and benches: s3rver (objects, multipart uploads, listings,
// ranges) behind a small edge of our own that does what s3rver does not: it verifies every
// request's AWS Signature Version 4 (Authorization header or presigned query) against the secret
// key, refuses expired presigned URLs, unsigned requests, bodies whose SHA-256 or CRC32 differ from
// what was signed or declared, and bodies shorter or longer than a signed Content-Length — as S3 does.
// s3rver 3.7.1 lacks ListMultipartUploads, ListParts and AbortMultipartUpload and checks no part
// on completion; the edge answers those from s3rver's own upload folders, with S3's rules (parts
// but the last ≥ 5 MiB, ETags must match, parts only into an open upload).
import { Blob } from "node:buffer";
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { mkdir, readdir, readFile, rm, stat } from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import S3rver from "s3rver";

/** s3rver knows one account; its key id is fixed, the secret is ours (checked at our edge only). */
export const S3_TEST_ACCESS_KEY_ID = "S3RVER";

const encode = (value) =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

const hmac = (key, value) => createHmac("sha256", key).update(value, "utf8").digest();
const sha256 = (value) => createHash("sha256").update(value).digest("hex");

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32Base64(bytes) {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  const out = Buffer.alloc(4);
  out.writeUInt32BE((crc ^ 0xffffffff) >>> 0);
  return out.toString("base64");
}

/** `20261124T160000Z` → epoch milliseconds. */
function amzDateMs(value) {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value ?? "");
  return m ? Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]) : NaN;
}

function parseAuthorization(header) {
  const m = /^AWS4-HMAC-SHA256 (.+)$/.exec(header ?? "");
  if (!m) return null;
  const parts = Object.fromEntries(
    m[1].split(",").map((p) => {
      const [k, ...v] = p.trim().split("=");
      return [k, v.join("=")];
    }),
  );
  return parts.Credential && parts.SignedHeaders && parts.Signature ? parts : null;
}

/**
 * The reason a request fails S3's checks, or null when it passes. `body` is the whole request body.
 * Follows docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-authenticating-requests.html.
 */
export function signatureProblem({ method, rawUrl, headers, body, secretAccessKey, now = Date.now() }) {
  const url = new URL(rawUrl, "http://edge");
  const query = [...url.searchParams.entries()];
  const q = Object.fromEntries(query);
  const auth = parseAuthorization(headers.authorization);
  const presigned = q["X-Amz-Algorithm"] === "AWS4-HMAC-SHA256";
  if (!auth && !presigned) return { code: "AccessDenied", message: "Anonymous requests are refused." };
  const credential = auth ? auth.Credential : q["X-Amz-Credential"];
  const signedHeaders = (auth ? auth.SignedHeaders : q["X-Amz-SignedHeaders"] ?? "").split(";").filter(Boolean);
  const provided = auth ? auth.Signature : q["X-Amz-Signature"];
  const date = auth ? headers["x-amz-date"] : q["X-Amz-Date"];
  const [accessKeyId, day, region, service, terminal] = (credential ?? "").split("/");
  if (accessKeyId !== S3_TEST_ACCESS_KEY_ID) return { code: "InvalidAccessKeyId", message: "Unknown access key." };
  if (service !== "s3" || terminal !== "aws4_request" || !date?.startsWith(day)) {
    return { code: "AuthorizationQueryParametersError", message: "Malformed credential scope." };
  }
  const signedAt = amzDateMs(date);
  if (Number.isNaN(signedAt)) return { code: "AccessDenied", message: "Malformed X-Amz-Date." };
  if (presigned) {
    const expires = Number(q["X-Amz-Expires"]);
    if (!Number.isInteger(expires) || expires < 1 || expires > 604800) return { code: "AccessDenied", message: "Bad X-Amz-Expires." };
    if (now > signedAt + expires * 1000) return { code: "AccessDenied", message: "Request has expired" };
  } else if (Math.abs(now - signedAt) > 15 * 60 * 1000) {
    return { code: "RequestTimeTooSkewed", message: "The request time is too far from the server's." };
  }
  if (!signedHeaders.includes("host")) return { code: "AccessDenied", message: "The host header must be signed." };

  let payloadHash = presigned ? "UNSIGNED-PAYLOAD" : headers["x-amz-content-sha256"];
  if (!payloadHash) return { code: "InvalidRequest", message: "Missing x-amz-content-sha256." };
  if (payloadHash.startsWith("STREAMING-")) return { code: "NotImplemented", message: "aws-chunked bodies are not accepted here." };
  if (payloadHash !== "UNSIGNED-PAYLOAD" && payloadHash !== sha256(body)) {
    return { code: "XAmzContentSHA256Mismatch", message: "The body's SHA-256 differs from the signed one." };
  }
  const crc = headers["x-amz-checksum-crc32"] ?? q["x-amz-checksum-crc32"];
  if (crc !== undefined && crc !== crc32Base64(body)) {
    return { code: "BadDigest", message: "The CRC32 you specified did not match the calculated checksum." };
  }
  if (headers["content-length"] !== undefined && Number(headers["content-length"]) !== body.length) {
    return { code: "IncompleteBody", message: "The body's length differs from its Content-Length." };
  }

  const canonicalUri = url.pathname
    .split("/")
    .map((segment) => encode(decodeURIComponent(segment)))
    .join("/");
  const canonicalQuery = query
    .filter(([k]) => k !== "X-Amz-Signature")
    .map(([k, v]) => [encode(k), encode(v)])
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join("&");
  const canonicalHeaders = signedHeaders
    .map((name) => `${name}:${String(headers[name] ?? "").trim().replace(/\s+/g, " ")}\n`)
    .join("");
  const canonicalRequest = [method, canonicalUri, canonicalQuery, canonicalHeaders, signedHeaders.join(";"), payloadHash].join("\n");
  const scope = `${day}/${region}/${service}/${terminal}`;
  const stringToSign = ["AWS4-HMAC-SHA256", date, scope, sha256(canonicalRequest)].join("\n");
  const expected = Buffer.from(createHmac("sha256", signingKey(secretAccessKey, day, region, service)).update(stringToSign, "utf8").digest("hex"));
  const given = Buffer.from(String(provided ?? ""));
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    return { code: "SignatureDoesNotMatch", message: "The request signature we calculated does not match the signature you provided." };
  }
  return null;
}

/** The SigV4 signing key of a day (AWS4 + secret → date → region → service → aws4_request). */
function signingKey(secretAccessKey, day, region, service = "s3") {
  let key = hmac(`AWS4${secretAccessKey}`, day);
  for (const part of [region, service, "aws4_request"]) key = hmac(key, part);
  return key;
}

/**
 * The form fields of an S3 browser-based upload (POST Object, SigV4-signed policy) of one key, as a service
 * hands them out for a staged upload (Shopify's stagedUploadsCreate does the same for its own bucket).
 */
export function signPostPolicy({ bucket, key, contentType, maxBytes, secretAccessKey, now = Date.now(), expiresInSeconds = 600, region = "us-east-1" }) {
  const date = new Date(now).toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");
  const credential = `${S3_TEST_ACCESS_KEY_ID}/${date.slice(0, 8)}/${region}/s3/aws4_request`;
  const policy = Buffer.from(
    JSON.stringify({
      expiration: new Date(now + expiresInSeconds * 1000).toISOString(),
      conditions: [{ bucket }, { key }, { "Content-Type": contentType }, ["content-length-range", 1, maxBytes], { "x-amz-algorithm": "AWS4-HMAC-SHA256" }, { "x-amz-credential": credential }, { "x-amz-date": date }],
    }),
  ).toString("base64");
  const signature = createHmac("sha256", signingKey(secretAccessKey, date.slice(0, 8), region)).update(policy, "utf8").digest("hex");
  return { key, "Content-Type": contentType, policy, "x-amz-algorithm": "AWS4-HMAC-SHA256", "x-amz-credential": credential, "x-amz-date": date, "x-amz-signature": signature };
}

/**
 * A POST Object to the bucket: the policy's signature, expiry and conditions checked as S3 does; returns the
 * key and bytes to store, or the problem.
 */
async function postObjectUpload({ req, body, bucket, secretAccessKey, now = Date.now() }) {
  const form = await new globalThis.Request("http://edge/", { method: "POST", headers: { "content-type": String(req.headers["content-type"]) }, body }).formData();
  const field = (name) => (typeof form.get(name) === "string" ? String(form.get(name)) : "");
  const file = form.get("file");
  if (!(file instanceof Blob)) return { problem: { code: "InvalidArgument", message: "POST requires exactly one file upload per request." } };
  const [keyId, day, region, service] = field("x-amz-credential").split("/");
  const signature = createHmac("sha256", signingKey(secretAccessKey, day ?? "", region ?? "", service)).update(field("policy"), "utf8").digest("hex");
  const given = Buffer.from(field("x-amz-signature"));
  if (keyId !== S3_TEST_ACCESS_KEY_ID || given.length !== signature.length || !timingSafeEqual(Buffer.from(signature), given)) {
    return { problem: { code: "SignatureDoesNotMatch", message: "The request signature we calculated does not match the signature you provided." } };
  }
  const policy = JSON.parse(Buffer.from(field("policy"), "base64").toString("utf8"));
  if (!(Date.parse(policy.expiration) > now)) return { problem: { code: "AccessDenied", message: "Invalid according to Policy: Policy expired." } };
  const bytes = Buffer.from(await file.arrayBuffer());
  for (const condition of policy.conditions) {
    if (Array.isArray(condition) && condition[0] === "content-length-range") {
      if (bytes.length < condition[1] || bytes.length > condition[2]) return { problem: { code: "EntityTooLarge", message: "Your proposed upload exceeds the maximum allowed size." } };
      continue;
    }
    const [[name, value]] = Object.entries(condition);
    const given = name === "bucket" ? bucket : field(name);
    if (given !== value) return { problem: { code: "AccessDenied", message: `Invalid according to Policy: Policy Condition failed: ["eq", "$${name}", "${value}"]` } };
  }
  return { key: field("key"), bytes, contentType: field("Content-Type") };
}

const MIN_PART_BYTES = 5 * 1024 * 1024;
const xml = (value) => String(value).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

function xmlAnswer(res, status, body) {
  res.writeHead(status, { "Content-Type": "application/xml" });
  res.end(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`);
}

/** Multipart bookkeeping s3rver lacks, read from its folders `<dir>/<bucket>/._S3rver_uploads/<id>/`. */
function multipartEdge(directory, bucket) {
  const uploadsDir = path.join(directory, bucket, "._S3rver_uploads");
  const isUploadId = (id) => /^[0-9a-f]{32}$/.test(id ?? "");
  const uploadKey = (id) => (isUploadId(id) ? readFile(path.join(uploadsDir, id, "key"), "utf8").catch(() => null) : Promise.resolve(null));
  const parts = async (id) => {
    const names = (await readdir(path.join(uploadsDir, id))).filter((n) => /^\d+$/.test(n));
    const out = await Promise.all(
      names.map(async (n) => ({
        number: Number(n),
        size: (await stat(path.join(uploadsDir, id, n))).size,
        etag: (await readFile(path.join(uploadsDir, id, `${n}.md5`), "utf8").catch(() => "")).trim(),
      })),
    );
    return out.sort((a, b) => a.number - b.number);
  };
  const noSuchUpload = (res) => xmlError(res, 404, { code: "NoSuchUpload", message: "The specified upload does not exist." });

  /** Answers the request when it is one of ours; false to forward it to s3rver. */
  return async function handle(req, res, body) {
    const url = new URL(req.url, "http://edge");
    const segments = url.pathname.split("/").slice(1);
    if (segments[0] !== bucket) return false;
    const key = segments.slice(1).map(decodeURIComponent).join("/");
    const uploadId = url.searchParams.get("uploadId");
    if (!key && req.method === "GET" && url.searchParams.has("uploads")) {
      const prefix = url.searchParams.get("prefix") ?? "";
      const ids = await readdir(uploadsDir).catch(() => []);
      const open = (await Promise.all(ids.map(async (id) => ({ id, key: await uploadKey(id) })))).filter(
        (u) => u.key !== null && u.key.startsWith(prefix),
      );
      const uploads = open.map((u) => `<Upload><Key>${xml(u.key)}</Key><UploadId>${u.id}</UploadId></Upload>`).join("");
      xmlAnswer(res, 200, `<ListMultipartUploadsResult><Bucket>${bucket}</Bucket><Prefix>${xml(prefix)}</Prefix><IsTruncated>false</IsTruncated>${uploads}</ListMultipartUploadsResult>`);
      return true;
    }
    if (!key || uploadId === null) return false;
    if ((await uploadKey(uploadId)) !== key) {
      noSuchUpload(res);
      return true;
    }
    if (req.method === "GET") {
      const listed = (await parts(uploadId))
        .map((p) => `<Part><PartNumber>${p.number}</PartNumber><ETag>"${p.etag}"</ETag><Size>${p.size}</Size></Part>`)
        .join("");
      xmlAnswer(res, 200, `<ListPartsResult><Bucket>${bucket}</Bucket><Key>${xml(key)}</Key><UploadId>${uploadId}</UploadId><IsTruncated>false</IsTruncated>${listed}</ListPartsResult>`);
      return true;
    }
    if (req.method === "DELETE") {
      await rm(path.join(uploadsDir, uploadId), { recursive: true, force: true });
      res.writeHead(204).end();
      return true;
    }
    if (req.method === "POST") {
      const stored = new Map((await parts(uploadId)).map((p) => [p.number, p]));
      const named = [...body.toString("utf8").matchAll(/<Part>([\s\S]*?)<\/Part>/g)].map((m) => ({
        number: Number(/<PartNumber>(\d+)<\/PartNumber>/.exec(m[1])?.[1]),
        etag: (/<ETag>([^<]*)<\/ETag>/.exec(m[1])?.[1] ?? "").replace(/&quot;|"/g, ""),
      }));
      if (named.length === 0) return xmlError(res, 400, { code: "MalformedXML", message: "No parts named." }), true;
      for (const [i, part] of named.entries()) {
        const have = stored.get(part.number);
        if (!have || have.etag !== part.etag) return xmlError(res, 400, { code: "InvalidPart", message: `Part ${part.number} is missing or its ETag differs.` }), true;
        if (i > 0 && named[i - 1].number >= part.number) return xmlError(res, 400, { code: "InvalidPartOrder", message: "Parts must ascend." }), true;
        if (i < named.length - 1 && have.size < MIN_PART_BYTES) return xmlError(res, 400, { code: "EntityTooSmall", message: `Part ${part.number} is under 5 MiB.` }), true;
      }
    }
    return false; // UploadPart and CompleteMultipartUpload into an open upload: s3rver stores them
  };
}

function xmlError(res, status, { code, message }) {
  res.writeHead(status, { "Content-Type": "application/xml" });
  res.end(`<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`);
}

/**
 * Starts s3rver on a private port and the verifying edge on `port` (0: any free port) with one bucket.
 * Returns the endpoint clients use, the per-run secret, and a stop function.
 * @param {{ port?: number, dir: string, bucket?: string, secretAccessKey?: string }} options
 */
export async function startS3Server({ port = 0, dir, bucket = "scanroom-test", secretAccessKey = randomBytes(24).toString("base64url") }) {
  const directory = path.resolve(dir);
  await rm(directory, { recursive: true, force: true });
  await mkdir(directory, { recursive: true });
  const inner = new S3rver({ port: 0, address: "127.0.0.1", directory, silent: true, configureBuckets: [{ name: bucket }] });
  const innerAddress = await inner.run();

  const multipart = multipartEdge(directory, bucket);
  // Each request reaches s3rver on a connection of its own (agent: false): a kept-alive one could be closed by
  // s3rver's 5 s idle limit just as a request is sent on it, which answered a client's upload 502 (decision 059).
  const edge = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("error", () => res.destroy());
    req.on("end", async () => {
      const body = Buffer.concat(chunks);
      if (req.method === "POST" && req.url === `/${bucket}` && String(req.headers["content-type"]).startsWith("multipart/form-data")) {
        const upload = await postObjectUpload({ req, body, bucket, secretAccessKey }).catch((error) => ({ problem: { code: "MalformedPOSTRequest", message: xml(error.message) } }));
        if (upload.problem) return xmlError(res, upload.problem.code === "SignatureDoesNotMatch" || upload.problem.code === "AccessDenied" ? 403 : 400, upload.problem);
        const put = http.request(
          { agent: false, host: "127.0.0.1", port: innerAddress.port, method: "PUT", path: `/${bucket}/${upload.key.split("/").map(encode).join("/")}`, headers: { "content-type": upload.contentType, "content-length": String(upload.bytes.length) } },
          (answer) => {
            answer.resume();
            res.writeHead(answer.statusCode === 200 ? 204 : 502).end();
          },
        );
        put.on("error", () => xmlError(res, 502, { code: "BadGateway", message: "s3rver is gone" }));
        return put.end(upload.bytes);
      }
      const problem = signatureProblem({ method: req.method, rawUrl: req.url, headers: req.headers, body, secretAccessKey });
      if (problem) return xmlError(res, problem.code === "NotImplemented" ? 501 : problem.code === "IncompleteBody" ? 400 : 403, problem);
      try {
        if (await multipart(req, res, body)) return;
      } catch (error) {
        return xmlError(res, 500, { code: "InternalError", message: xml(error instanceof Error ? error.message : error) });
      }
      const forward = http.request(
        { agent: false, host: "127.0.0.1", port: innerAddress.port, method: req.method, path: req.url, headers: { ...req.headers, "content-length": String(body.length) } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on("error", () => (res.headersSent ? res.destroy() : xmlError(res, 502, { code: "BadGateway", message: "s3rver is gone" })));
      forward.end(body);
    });
  });
  // Idle client connections are kept as long as the web server keeps them (KEEP_ALIVE_SECONDS' default), not Node's 5 s.
  edge.keepAliveTimeout = 65_000;
  edge.headersTimeout = 66_000;
  await new Promise((resolve, reject) => {
    edge.once("error", reject);
    edge.listen(port, "127.0.0.1", resolve);
  });
  const endpoint = `http://127.0.0.1:${edge.address().port}`;
  return {
    endpoint,
    bucket,
    accessKeyId: S3_TEST_ACCESS_KEY_ID,
    secretAccessKey,
    stop: async () => {
      edge.closeAllConnections();
      await new Promise((resolve) => edge.close(() => resolve(undefined)));
      await inner.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
