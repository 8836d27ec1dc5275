import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sqlStatements } from "./sql-statements";

describe("sqlStatements", () => {
  it("splits at the semicolons that end statements, not those quoted, dollar-quoted or commented", () => {
    const script = [
      "-- a comment; with a semicolon",
      "CREATE TABLE \"a;b\" (x TEXT DEFAULT 'it''s; fine');",
      "CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$",
      "BEGIN",
      "  PERFORM pg_notify('c', 'x;y');",
      "  RETURN NULL;",
      "END;",
      "$$;",
      "/* block; comment */ SELECT $tag$ a; b $tag$, $1",
    ].join("\n");
    expect(sqlStatements(script)).toEqual([
      "-- a comment; with a semicolon\nCREATE TABLE \"a;b\" (x TEXT DEFAULT 'it''s; fine')",
      "CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$\nBEGIN\n  PERFORM pg_notify('c', 'x;y');\n  RETURN NULL;\nEND;\n$$",
      "/* block; comment */ SELECT $tag$ a; b $tag$, $1",
    ]);
  });

  it("drops what holds nothing but whitespace and comments", () => {
    expect(sqlStatements("  ;\n-- only a comment\n;/* and another */")).toEqual([]);
  });

  it("splits every migration we ship as the upstream splitter does, where that is right (no quoted semicolons)", () => {
    const dir = path.join(import.meta.dirname, "migrations");
    for (const name of readdirSync(dir).filter((entry) => !entry.endsWith(".toml"))) {
      const script = readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      const statements = sqlStatements(script);
      expect(statements.length, name).toBeGreaterThan(0);
      if (!/\$\$|'[^'\n]*;[^'\n]*'/.test(script)) {
        // The adapter's own split: every piece, trimmed, that holds more than comments.
        const upstream = script.split(";").map((piece) => piece.trim()).filter((piece) => piece && piece.replace(/--[^\n]*(\n|$)/g, "").trim());
        expect(statements, name).toEqual(upstream);
      }
    }
  });
});
