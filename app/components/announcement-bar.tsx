import { useEffect, useState } from "react";
import { useAuth } from "~/auth/auth-provider";
import type { AnnouncementDto } from "~/domain/announcements.server";
import { closeAnnouncement, readClosedAnnouncements, RESET_ANNOUNCEMENTS_EVENT } from "~/lib/announcements-storage";

/** SPEC §3 defaults: a faint translucent white background and the theme's text colour. */
export const DEFAULT_ANNOUNCEMENT_BACKGROUND = "rgba(255, 255, 255, 0.1)";
export const DEFAULT_ANNOUNCEMENT_TEXT = "var(--text-color, #4b5563)";

/**
 * Stacked banners above the page (SPEC §2): active announcements by order ascending, HTML content
 * (sanitised by the server), closable ones hidden for good once closed. A load failure is logged and
 * hides the bar (SPEC §8).
 */
export function AnnouncementBar() {
  const { api } = useAuth();
  const [announcements, setAnnouncements] = useState<AnnouncementDto[]>([]);
  const [closed, setClosed] = useState<string[] | null>(null);

  useEffect(() => {
    let cancelled = false;
    api<AnnouncementDto[] | { data: AnnouncementDto[] }>("/announcements").then(
      (data) => {
        if (cancelled) return;
        const list = Array.isArray(data) ? data : Array.isArray(data?.data) ? data.data : [];
        setAnnouncements([...list].sort((a, b) => a.order - b.order));
      },
      (error: unknown) => {
        if (cancelled) return;
        console.warn("Announcements could not be loaded:", error instanceof Error ? error.message : error);
        setAnnouncements([]);
      },
    );
    return () => {
      cancelled = true;
    };
  }, [api]);

  // The closed list lives in localStorage; the resetAnnouncements event (fired on /) reloads it.
  useEffect(() => {
    const reload = () => setClosed(readClosedAnnouncements());
    reload();
    window.addEventListener(RESET_ANNOUNCEMENTS_EVENT, reload);
    return () => window.removeEventListener(RESET_ANNOUNCEMENTS_EVENT, reload);
  }, []);

  if (closed === null) return null;
  const visible = announcements.filter((a) => !a.is_closable || !closed.includes(a.id));
  if (visible.length === 0) return null;
  return (
    <div className="announcements" data-testid="announcement-bar">
      {visible.map((a) => (
        <AnnouncementBanner
          key={a.id}
          announcement={a}
          onClose={() => {
            closeAnnouncement(a.id);
            setClosed(readClosedAnnouncements());
          }}
        />
      ))}
    </div>
  );
}

/**
 * One banner: HTML content on its colours (SPEC's defaults when none), with a close button when closable.
 * Also the admin editor's live preview, so the preview looks exactly like the bar.
 */
export function AnnouncementBanner({
  announcement: a,
  onClose,
  preview = false,
}: {
  announcement: Pick<AnnouncementDto, "id" | "content" | "background_color" | "text_color" | "is_closable">;
  onClose?: () => void;
  /** An admin preview: labelled as such, and its close button does nothing. */
  preview?: boolean;
}) {
  return (
    <section
      className="announcement"
      data-testid={preview ? "announcement-preview" : "announcement"}
      data-announcement-id={preview ? undefined : a.id}
      aria-label={preview ? "Announcement preview" : "Announcement"}
      style={{ background: a.background_color ?? DEFAULT_ANNOUNCEMENT_BACKGROUND, color: a.text_color ?? DEFAULT_ANNOUNCEMENT_TEXT }}
    >
      {/* Sanitised on the server when saved and again when served (app/lib/sanitize-html.server.ts). */}
      <div className="announcement-content" dangerouslySetInnerHTML={{ __html: a.content }} />
      {a.is_closable ? (
        <button type="button" className="announcement-close" aria-label="Close announcement" onClick={onClose} disabled={preview}>
          <i className="pi pi-times" aria-hidden="true" />
        </button>
      ) : null}
    </section>
  );
}
