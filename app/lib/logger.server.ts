import { env } from "~/env.server";

/**
 * A small structured logger (its level is LOG_LEVEL, read through app/env.server.ts like every setting). It never prints credentials: values under token-like keys and bearer
 * strings are masked before writing.
 */
const LEVELS = { debug: 10, info: 20, warn: 30, error: 40 } as const;
type Level = keyof typeof LEVELS;

const SECRET_KEY = /token|authorization|password|secret|cookie|signature|sig$/i;
const BEARER = /(Bearer\s+)[A-Za-z0-9._~+/=-]+/gi;
const JWT = /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g;

export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return value.replace(BEARER, "$1[redacted]").replace(JWT, "[redacted-jwt]");
  if (value instanceof Error) return { name: value.name, message: redact(value.message), stack: value.stack };
  if (!value || typeof value !== "object" || depth > 4) return value;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) out[key] = SECRET_KEY.test(key) ? "[redacted]" : redact(v, depth + 1);
  return out;
}

function threshold(): number {
  try {
    return LEVELS[env().LOG_LEVEL];
  } catch {
    // An invalid configuration is reported by the boot that reads it; until then, log at the default level.
    return LEVELS.info;
  }
}

function write(level: Level, message: string, fields?: Record<string, unknown>) {
  if (LEVELS[level] < threshold()) return;
  const line = JSON.stringify({ level, time: new Date().toISOString(), msg: redact(message), ...(redact(fields ?? {}) as object) });
  (level === "error" || level === "warn" ? process.stderr : process.stdout).write(line + "\n");
}

export const logger = {
  debug: (m: string, f?: Record<string, unknown>) => write("debug", m, f),
  info: (m: string, f?: Record<string, unknown>) => write("info", m, f),
  warn: (m: string, f?: Record<string, unknown>) => write("warn", m, f),
  error: (m: string, f?: Record<string, unknown>) => write("error", m, f),
};
