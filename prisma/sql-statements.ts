/**
 * A migration script's statements, split at the semicolons that end them — not at those inside quoted strings,
 * quoted names, dollar-quoted bodies (a trigger function's `$$ … $$`) or comments. @prisma/adapter-pg 6.19
 * splits at every semicolon, which cuts a PL/pgSQL body apart (prisma/migrate-adapter.ts).
 */
export function sqlStatements(script: string): string[] {
  const statements: string[] = [];
  let start = 0;
  let i = 0;
  const push = (end: number) => {
    const statement = script.slice(start, end).trim();
    if (statement && !isOnlyComments(statement)) statements.push(statement);
  };
  while (i < script.length) {
    const char = script[i];
    const next = script[i + 1];
    if (char === "-" && next === "-") {
      const end = script.indexOf("\n", i);
      i = end < 0 ? script.length : end + 1;
    } else if (char === "/" && next === "*") {
      const end = script.indexOf("*/", i + 2);
      i = end < 0 ? script.length : end + 2;
    } else if (char === "'" || char === '"') {
      // A doubled quote inside is part of the text: the scan resumes after it.
      let end = i + 1;
      for (;;) {
        end = script.indexOf(char, end);
        if (end < 0 || script[end + 1] !== char) break;
        end += 2;
      }
      i = end < 0 ? script.length : end + 1;
    } else if (char === "$") {
      const tag = /^\$(?:[A-Za-z_][A-Za-z0-9_]*)?\$/.exec(script.slice(i))?.[0];
      if (tag) {
        const end = script.indexOf(tag, i + tag.length);
        i = end < 0 ? script.length : end + tag.length;
      } else {
        i += 1;
      }
    } else if (char === ";") {
      push(i);
      i += 1;
      start = i;
    } else {
      i += 1;
    }
  }
  push(script.length);
  return statements;
}

function isOnlyComments(statement: string): boolean {
  return statement.replace(/--[^\n]*(\n|$)/g, "").replace(/\/\*[\s\S]*?\*\//g, "").trim() === "";
}
