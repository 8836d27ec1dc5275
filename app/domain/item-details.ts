/**
 * What a creator says about a model besides its file (issue 35 items 3 and 4; docs/decisions/048-licences-and-tags.md):
 * its licence and its tags. Shared by the upload dialog, the edit page, the model page, the API's schemas and search,
 * so each rule has one home.
 */

/** The licences a model may carry, in the order forms list them. `all_rights_reserved` is every model's default. */
export const LICENSES = ["all_rights_reserved", "cc_by", "cc_by_sa", "cc_by_nc", "cc0"] as const;
export type License = (typeof LICENSES)[number];
export const DEFAULT_LICENSE: License = "all_rights_reserved";

interface LicenseInfo {
  /** The short name shown beside the model. */
  label: string;
  /** What it lets others do, in one line, for the forms and the model page. */
  summary: string;
  /** The licence's own text; none for all rights reserved. */
  url: string | null;
}

export const LICENSE_INFO: Record<License, LicenseInfo> = {
  all_rights_reserved: { label: "All rights reserved", summary: "Others may view it but not reuse it.", url: null },
  cc_by: {
    label: "CC BY 4.0",
    summary: "Anyone may reuse and adapt it, also commercially, if they credit you.",
    url: "https://creativecommons.org/licenses/by/4.0/",
  },
  cc_by_sa: {
    label: "CC BY-SA 4.0",
    summary: "Anyone may reuse and adapt it if they credit you and share what they make under the same licence.",
    url: "https://creativecommons.org/licenses/by-sa/4.0/",
  },
  cc_by_nc: {
    label: "CC BY-NC 4.0",
    summary: "Anyone may reuse and adapt it if they credit you, but not commercially.",
    url: "https://creativecommons.org/licenses/by-nc/4.0/",
  },
  cc0: {
    label: "CC0 1.0 (public domain)",
    summary: "Anyone may use it for anything, without credit.",
    url: "https://creativecommons.org/publicdomain/zero/1.0/",
  },
};

export const MAX_TAGS = 10;
export const MAX_TAG_LENGTH = 30;
/** A tag as stored: lowercase letters (any script), digits, single spaces or hyphens between them. */
const TAG_PATTERN = /^[\p{Ll}\p{Lm}\p{Lo}\p{M}\p{N}]+(?:[ -][\p{Ll}\p{Lm}\p{Lo}\p{M}\p{N}]+)*$/u;

/** One tag as typed (" #Red  Chair ") in its stored form ("red chair"); "" when nothing is left. */
export function normalizeTag(raw: string): string {
  return raw
    .normalize("NFC")
    .toLowerCase()
    .replace(/^[\s#]+/, "")
    .replace(/[\s_]+/g, " ")
    .replace(/-{2,}/g, "-")
    .trim();
}

/** Why a normalized tag cannot be kept, or null when it can. */
export function tagProblem(tag: string): string | null {
  if (tag.length === 0) return "must not be empty";
  if (tag.length > MAX_TAG_LENGTH) return `must be at most ${MAX_TAG_LENGTH} characters`;
  if (!TAG_PATTERN.test(tag)) return "may hold only letters, digits, spaces and hyphens";
  return null;
}

/** Tags as a person types them, separated by commas ("chair, Oak,#wood"), normalized, empty ones and repeats dropped. */
export function parseTagList(text: string): string[] {
  return uniqueTags(text.split(","));
}

/** Normalized, without empty ones and repeats, in the order given. */
export function uniqueTags(tags: readonly string[]): string[] {
  return [...new Set(tags.map(normalizeTag).filter((tag) => tag.length > 0))];
}

/** The first problem of a tag list (as stored), or null. */
export function tagListProblem(tags: readonly string[]): string | null {
  if (tags.length > MAX_TAGS) return `must be at most ${MAX_TAGS}`;
  for (const tag of tags) {
    const problem = tagProblem(tag);
    if (problem) return `“${tag}” ${problem}`;
  }
  return null;
}
