/**
 * The bulk-attach CSV of the Shopify admin: one link per line, `handle,model_id[,variant_id]`, an optional
 * header line, `#` comments and blank lines ignored. The variant is its numeric id or GID; without it the
 * model goes on the whole product. Pure, shared by the admin page and its action.
 */
export const CSV_MAX_ROWS = 500;

export interface CsvLinkRow {
  line: number;
  handle: string;
  itemId: string;
  variantGid: string; // "" = the whole product
}

export interface CsvProblem {
  line: number;
  message: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HANDLE = /^[\p{Ll}\p{Lo}\p{N}][\p{Ll}\p{Lo}\p{N}_-]*$/u;
const VARIANT = /^(?:gid:\/\/shopify\/ProductVariant\/)?(\d+)$/;

function cells(line: string): string[] {
  return line.split(",").map((cell) => cell.trim().replace(/^"(.*)"$/, "$1").trim());
}

export function parseLinkCsv(text: string): { rows: CsvLinkRow[]; problems: CsvProblem[] } {
  const rows: CsvLinkRow[] = [];
  const problems: CsvProblem[] = [];
  let first = true;
  text.replace(/^\uFEFF/, "").split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    const trimmed = raw.trim();
    if (!trimmed || trimmed.startsWith("#")) return;
    const [handle = "", itemId = "", variant = "", ...rest] = cells(trimmed);
    const isHeader = first && handle.toLowerCase() === "handle";
    first = false;
    if (isHeader) return;
    if (rest.some((cell) => cell !== "")) return void problems.push({ line, message: "Expected handle,model_id[,variant_id]." });
    if (!HANDLE.test(handle)) return void problems.push({ line, message: `"${handle}" is not a product handle.` });
    if (!UUID.test(itemId)) return void problems.push({ line, message: `"${itemId}" is not a model id.` });
    const variantMatch = variant === "" ? null : VARIANT.exec(variant);
    if (variant !== "" && !variantMatch) return void problems.push({ line, message: `"${variant}" is not a variant id.` });
    rows.push({
      line,
      handle,
      itemId: itemId.toLowerCase(),
      variantGid: variantMatch ? `gid://shopify/ProductVariant/${variantMatch[1]}` : "",
    });
  });
  if (rows.length > CSV_MAX_ROWS) {
    return { rows: [], problems: [{ line: 0, message: `At most ${CSV_MAX_ROWS} links per file (found ${rows.length}).` }] };
  }
  return { rows, problems };
}
