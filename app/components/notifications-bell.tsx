import { Link, useLocation } from "@remix-run/react";
import { useCallback, useEffect, useId, useRef, useState } from "react";
import { useAuth } from "~/auth/auth-provider";
import type { NotificationDto } from "~/domain/notifications.server";
import { useDismiss } from "~/components/use-dismiss";

const REFRESH_MS = 60_000;

interface Feed {
  notifications: NotificationDto[];
  unread_count: number;
}

function timeAgo(iso: string): string {
  const seconds = Math.max(0, (Date.now() - new Date(iso).getTime()) / 1000);
  if (seconds < 60) return "just now";
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  return new Date(iso).toLocaleDateString("en");
}

const KIND_ICON: Record<string, string> = {
  scan_finished: "pi pi-check-circle",
  scan_failed: "pi pi-times-circle",
  quota_warning: "pi pi-exclamation-triangle",
  announcement: "pi pi-megaphone",
  moderation: "pi pi-flag",
  plan_changed: "pi pi-credit-card",
  featured: "pi pi-star",
};

/** The header's bell (always shown): unread count, and a list that marks everything read when opened. */
export function NotificationsBell() {
  const { user, api, ready, firebaseUser } = useAuth();
  const location = useLocation();
  const [feed, setFeed] = useState<Feed | null>(null);
  const [open, setOpen] = useState(false);
  const [failed, setFailed] = useState(false);
  const panelId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  // Calls carry the Firebase token, known only once the first sign-in state is (SPEC §2 boot).
  const userId = ready && firebaseUser ? (user?.id ?? null) : null;

  const load = useCallback(async () => {
    if (!userId) return null;
    try {
      const data = await api<Feed>("/notifications");
      setFeed(data);
      setFailed(false);
      return data;
    } catch {
      setFailed(true);
      return null;
    }
  }, [api, userId]);

  useEffect(() => {
    setFeed(null);
    if (!userId) return;
    void load();
    const timer = setInterval(() => {
      if (document.visibilityState === "visible") void load();
    }, REFRESH_MS);
    return () => clearInterval(timer);
  }, [userId, load]);

  // Close on navigation, outside click and Escape.
  useEffect(() => setOpen(false), [location.pathname]);
  const close = useCallback(() => setOpen(false), []);
  useDismiss(open, close, rootRef);

  const toggle = async () => {
    const next = !open;
    setOpen(next);
    if (!next || !userId) return;
    const latest = (await load()) ?? feed;
    if (latest && latest.unread_count > 0) {
      try {
        await api("/notifications/read", { method: "POST", body: {} });
        // The list keeps showing what was new while it is open; the badge clears.
        setFeed({ ...latest, unread_count: 0 });
      } catch {
        setFailed(true);
      }
    }
  };

  const unread = feed?.unread_count ?? 0;
  const label = unread > 0 ? `Notifications, ${unread} unread` : "Notifications";
  return (
    <div className="notif" ref={rootRef}>
      <button
        type="button"
        className="notif-button p-button p-button-text p-button-icon-only"
        aria-label={label}
        aria-expanded={open}
        aria-controls={panelId}
        data-testid="notifications-bell"
        onClick={toggle}
      >
        <i className="pi pi-bell" aria-hidden="true" />
        {unread > 0 ? (
          <span className="notif-badge" data-testid="notifications-unread" aria-hidden="true">
            {unread > 99 ? "99+" : unread}
          </span>
        ) : null}
      </button>
      {open ? (
        <section id={panelId} className="notif-panel" aria-label="Notifications" data-testid="notifications-panel">
          <h2 className="notif-title">Notifications</h2>
          {!userId ? (
            <p className="notif-empty">
              <Link to={`/auth?redirect=${encodeURIComponent(location.pathname + location.search)}`}>Sign in</Link> to see your notifications.
            </p>
          ) : failed && !feed ? (
            <p className="notif-empty">Notifications could not be loaded. Try again in a moment.</p>
          ) : !feed ? (
            <p className="notif-empty">Loading…</p>
          ) : feed.notifications.length === 0 ? (
            <p className="notif-empty">No notifications yet. We will tell you here when a scan finishes.</p>
          ) : (
            <ul className="notif-list">
              {feed.notifications.map((n) => {
                const body = (
                  <>
                    <i className={KIND_ICON[n.kind] ?? "pi pi-info-circle"} aria-hidden="true" />
                    <span className="notif-text">
                      <strong>{n.title}</strong>
                      {n.body ? <span>{n.body}</span> : null}
                      <small>
                        {timeAgo(n.created_at)}
                        {n.read ? "" : " · new"}
                      </small>
                    </span>
                  </>
                );
                return (
                  <li key={n.id} className={n.read ? "notif-item" : "notif-item is-unread"} data-testid="notification">
                    {n.link ? (
                      <Link to={n.link} className="notif-link">
                        {body}
                      </Link>
                    ) : (
                      <div className="notif-link">{body}</div>
                    )}
                  </li>
                );
              })}
            </ul>
          )}
        </section>
      ) : null}
    </div>
  );
}
