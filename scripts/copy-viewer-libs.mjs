// Copies three.js's Draco and Basis (KTX2) decoders into public/viewer-libs so the viewer loads them
// from our own origin (no CDN; DESIGN §2). Runs before every build.
import { cpSync, mkdirSync } from "node:fs";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const libs = path.join(root, "node_modules/three/examples/jsm/libs");
const target = path.join(root, "public/viewer-libs");
mkdirSync(target, { recursive: true });
for (const name of ["draco", "basis"]) cpSync(path.join(libs, name), path.join(target, name), { recursive: true });
