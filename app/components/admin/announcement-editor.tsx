import { Button } from "primereact/button";
import { Checkbox } from "primereact/checkbox";
import { Dialog } from "primereact/dialog";
import { useMemo, useState, type FormEvent } from "react";
import { AnnouncementBanner, DEFAULT_ANNOUNCEMENT_BACKGROUND } from "~/components/announcement-bar";
import { RichTextEditor } from "~/components/rich-text-editor";
import type { AnnouncementDto } from "~/domain/announcements.server";
import { isSafeCssColor, safeCssColor } from "~/lib/css-color";
import { sanitizeHtmlInBrowser } from "~/lib/sanitize-html.client";
import { ColorField } from "./color-field";

export interface AnnouncementDraft {
  content: string;
  background_color: string | null;
  text_color: string | null;
  is_active: boolean;
  is_closable: boolean;
}

const EMPTY: AnnouncementDraft = { content: "", background_color: null, text_color: null, is_active: true, is_closable: true };

/**
 * Creates or edits an announcement: the shared rich-text editor (bold, italic, underline, lists, links;
 * pasting keeps plain text), SPEC's default colours, active and closable, and a live preview that uses
 * the server's own allow-list, so what you see is what is saved. Rendered only while open, in the browser.
 */
export function AnnouncementEditor({
  announcement,
  busy,
  onSave,
  onCancel,
}: {
  announcement: AnnouncementDto | null;
  busy: boolean;
  onSave: (draft: AnnouncementDraft) => void;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState<AnnouncementDraft>(() =>
    announcement
      ? {
          content: announcement.content,
          background_color: announcement.background_color,
          text_color: announcement.text_color,
          is_active: announcement.is_active,
          is_closable: announcement.is_closable,
        }
      : EMPTY,
  );
  const preview = useMemo(() => sanitizeHtmlInBrowser(draft.content), [draft.content]);
  const set = (changes: Partial<AnnouncementDraft>) => setDraft((d) => ({ ...d, ...changes }));
  const coloursValid = [draft.background_color, draft.text_color].every((c) => c === null || isSafeCssColor(c));
  const contentEmpty = preview === "";

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (contentEmpty || !coloursValid) return;
    onSave(draft);
  };

  return (
    <Dialog
      header={announcement ? "Edit announcement" : "New announcement"}
      visible
      onHide={() => !busy && onCancel()}
      style={{ width: "min(44rem, 95vw)" }}
    >
      <form className="admin-form" onSubmit={submit}>
        <span id="announcement-content-label" className="admin-label">
          Content
        </span>
        <RichTextEditor
          id="announcement-content"
          labelId="announcement-content-label"
          initialHtml={draft.content}
          onChange={(content) => set({ content })}
          disabled={busy}
        />
        <small id="announcement-content-help" className="admin-help">
          Bold, italic, underline, lists and links. Anything else is removed when saved; the preview shows what stays.
        </small>
        <div className="admin-form-row">
          <ColorField
            id="announcement-background"
            label="Background colour"
            value={draft.background_color}
            defaultValue={DEFAULT_ANNOUNCEMENT_BACKGROUND}
            defaultHex="ffffff"
            onChange={(background_color) => set({ background_color })}
          />
          <ColorField
            id="announcement-text"
            label="Text colour"
            value={draft.text_color}
            defaultValue="the theme's text colour (#4b5563)"
            defaultHex="4b5563"
            onChange={(text_color) => set({ text_color })}
          />
        </div>
        <div className="admin-form-row">
          <div className="admin-check">
            <Checkbox inputId="announcement-active" checked={draft.is_active} onChange={(e) => set({ is_active: e.checked === true })} />
            <label htmlFor="announcement-active">Active (shown to visitors)</label>
          </div>
          <div className="admin-check">
            <Checkbox inputId="announcement-closable" checked={draft.is_closable} onChange={(e) => set({ is_closable: e.checked === true })} />
            <label htmlFor="announcement-closable">Closable (visitors can close it)</label>
          </div>
        </div>
        <h3 className="admin-subheading">Preview</h3>
        {contentEmpty ? (
          <p className="admin-help" role="status">
            Nothing to show yet: write some text (unsafe HTML is removed).
          </p>
        ) : (
          <AnnouncementBanner
            preview
            announcement={{
              id: "preview",
              content: preview,
              background_color: safeCssColor(draft.background_color),
              text_color: safeCssColor(draft.text_color),
              is_closable: draft.is_closable,
            }}
          />
        )}
        <div className="admin-actions">
          <Button type="button" text label="Cancel" onClick={onCancel} disabled={busy} />
          <Button type="submit" label={announcement ? "Save changes" : "Create announcement"} loading={busy} disabled={contentEmpty || !coloursValid} />
        </div>
      </form>
    </Dialog>
  );
}
