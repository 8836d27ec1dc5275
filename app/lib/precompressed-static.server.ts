/**
 * Serves the brotli or gzip copy that scripts/precompress-build.mjs wrote next to a client build file
 * (`x.js.br`, `x.js.gz`), when the browser accepts it: no compression work per request. Files without
 * such copies, and browsers that accept neither, fall through to express.static (and the compression
 * middleware). Issue 20: on-the-fly gzip on the server's one thread made the viewer's scripts and
 * Spark's WASM arrive late.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import type { NextFunction, Request, Response } from "express";

export type PrecompressedEncoding = "br" | "gzip";

/** The copy's file name ending for each encoding, in our order of preference (smaller first) at equal weight. */
const SUFFIXES: Readonly<Record<PrecompressedEncoding, string>> = { br: ".br", gzip: ".gz" };
const PREFERENCE = Object.keys(SUFFIXES) as PrecompressedEncoding[];

/**
 * The encoding to send from those `available`, by the request's Accept-Encoding (RFC 9110 §12.5.3):
 * the highest q above 0, ties to our preference; `*` stands for any coding not named. Null: send the file
 * as it is.
 */
export function pickEncoding(
  acceptEncoding: string | undefined,
  available: ReadonlySet<PrecompressedEncoding>,
): PrecompressedEncoding | null {
  if (!acceptEncoding) return null;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    // A weight that is not a number counts as a refusal.
    const q = params.map((param) => param.trim()).find((param) => param.startsWith("q="));
    const weight = q === undefined ? 1 : /^[0-9.]+$/.test(q.slice(2)) ? Number(q.slice(2)) : 0;
    weights.set(name.trim(), Number.isFinite(weight) ? weight : 0);
  }
  let best: PrecompressedEncoding | null = null;
  let bestWeight = 0;
  for (const encoding of PREFERENCE) {
    if (!available.has(encoding)) continue;
    const weight = weights.get(encoding) ?? (encoding === "gzip" ? weights.get("x-gzip") : undefined) ?? weights.get("*") ?? 0;
    if (weight > bestWeight) {
      best = encoding;
      bestWeight = weight;
    }
  }
  return best;
}

/** URL path ("/assets/x.js") → the encodings precompressed for it, found once in the (immutable) build. */
function findPrecompressed(dir: string): Map<string, Set<PrecompressedEncoding>> {
  const found = new Map<string, Set<PrecompressedEncoding>>();
  let entries: string[];
  try {
    entries = readdirSync(dir, { recursive: true, encoding: "utf8" });
  } catch {
    return found;
  }
  for (const entry of entries) {
    const encoding = PREFERENCE.find((candidate) => entry.endsWith(SUFFIXES[candidate]));
    if (!encoding) continue;
    const urlPath = `/${entry.slice(0, -SUFFIXES[encoding].length).split(path.sep).join("/")}`;
    const encodings = found.get(urlPath) ?? new Set();
    encodings.add(encoding);
    found.set(urlPath, encodings);
  }
  return found;
}

export interface PrecompressedStaticOptions {
  /** Cache-Control max-age, as express.static takes it. */
  maxAge: string | number;
  immutable?: boolean;
}

/**
 * Middleware for the files under `dir`: mount it where express.static serves that folder, just before it (the
 * compression middleware leaves a response with a Content-Encoding alone). Only paths with a copy found at start-up are served here: a request path is
 * looked up, never joined onto the folder.
 */
export function precompressedStatic(dir: string, { maxAge, immutable = false }: PrecompressedStaticOptions) {
  const precompressed = findPrecompressed(dir);
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const available = precompressed.get(req.path);
    if (!available) return next();
    // Caches must key these responses on the browser's Accept-Encoding, the plain one included.
    res.vary("Accept-Encoding");
    const encoding = pickEncoding(req.headers["accept-encoding"], available);
    if (!encoding) return next();
    res.type(path.extname(req.path)); // the plain file's type (express's own table), not the copy's
    res.setHeader("Content-Encoding", encoding);
    res.sendFile(`${req.path.slice(1)}${SUFFIXES[encoding]}`, { root: dir, maxAge, immutable, dotfiles: "deny" }, (error) => {
      // Gone since start-up (a build replaced under us): the plain file, as if there were no copy.
      if (!error || res.headersSent) return;
      res.removeHeader("Content-Encoding");
      res.removeHeader("Content-Type");
      next();
    });
  };
}
