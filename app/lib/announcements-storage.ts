/** SPEC §3/§4: closed announcement ids live in localStorage under closedAnnouncements. */
export const CLOSED_ANNOUNCEMENTS_KEY = "closedAnnouncements";
export const RESET_ANNOUNCEMENTS_EVENT = "resetAnnouncements";

export function readClosedAnnouncements(): string[] {
  try {
    const parsed = JSON.parse(window.localStorage.getItem(CLOSED_ANNOUNCEMENTS_KEY) ?? "[]");
    return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === "string") : [];
  } catch {
    return [];
  }
}

export function closeAnnouncement(id: string) {
  const ids = new Set(readClosedAnnouncements());
  ids.add(id);
  window.localStorage.setItem(CLOSED_ANNOUNCEMENTS_KEY, JSON.stringify([...ids]));
}

/** Visiting / clears the closed list and tells the bar to reload it (SPEC §2). */
export function resetClosedAnnouncements() {
  window.localStorage.removeItem(CLOSED_ANNOUNCEMENTS_KEY);
  window.dispatchEvent(new Event(RESET_ANNOUNCEMENTS_EVENT));
}
