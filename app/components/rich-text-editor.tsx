import { useEffect, useRef, useState, type CSSProperties } from "react";
import { sanitizeHtmlInBrowser } from "~/lib/sanitize-html.client";

/**
 * A small rich-text editor for annotation bodies: bold, italic, underline, lists and links on a
 * contentEditable area. Pasting keeps plain text only. What it produces is only a draft: the
 * server sanitises it with the allow-list of app/lib/sanitize-html-rules.ts before storing it.
 * Uncontrolled after mount: give it a `key` to load other content.
 */
const COMMANDS = [
  { command: "bold", label: "Bold", text: "B", style: { fontWeight: 700 } },
  { command: "italic", label: "Italic", text: "I", style: { fontStyle: "italic" } },
  { command: "underline", label: "Underline", text: "U", style: { textDecoration: "underline" } },
  { command: "insertUnorderedList", label: "Bulleted list", text: "•", style: {} },
  { command: "insertOrderedList", label: "Numbered list", text: "1.", style: {} },
] as const;

const styles = {
  toolbar: { display: "flex", gap: 4, flexWrap: "wrap" },
  button: { minWidth: 30, padding: "2px 8px", border: "1px solid #cbd5e1", borderRadius: 4, background: "#fff", cursor: "pointer" },
  area: { minHeight: "6rem", maxHeight: "16rem", overflow: "auto", padding: "6px 8px", border: "1px solid #cbd5e1", borderRadius: 6, background: "#fff" },
  link: { display: "flex", gap: 4 },
} satisfies Record<string, CSSProperties>;

const SAFE_LINK = /^(https?:\/\/|mailto:)\S+$/i;

export function RichTextEditor({
  id,
  labelId,
  initialHtml,
  onChange,
  disabled,
}: {
  id: string;
  labelId: string;
  initialHtml: string;
  onChange: (html: string) => void;
  disabled?: boolean;
}) {
  const areaRef = useRef<HTMLDivElement>(null);
  const savedRange = useRef<Range | null>(null);
  const [linkUrl, setLinkUrl] = useState<string | null>(null);

  useEffect(() => {
    if (areaRef.current) areaRef.current.innerHTML = sanitizeHtmlInBrowser(initialHtml);
    // Loaded once per mount (see the `key` note above); typing must not reset the caret.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const emit = () => onChange(areaRef.current?.innerHTML ?? "");

  const run = (command: string, value?: string) => {
    areaRef.current?.focus();
    document.execCommand(command, false, value);
    emit();
  };

  const startLink = () => {
    const selection = window.getSelection();
    savedRange.current = selection && selection.rangeCount > 0 ? selection.getRangeAt(0).cloneRange() : null;
    setLinkUrl("https://");
  };

  const applyLink = () => {
    const url = (linkUrl ?? "").trim();
    setLinkUrl(null);
    if (!SAFE_LINK.test(url)) return;
    areaRef.current?.focus();
    const selection = window.getSelection();
    if (savedRange.current && selection) {
      selection.removeAllRanges();
      selection.addRange(savedRange.current);
    }
    if (selection && !selection.isCollapsed) run("createLink", url);
    else run("insertHTML", `<a href="${url.replace(/"/g, "&quot;")}">${url.replace(/</g, "&lt;")}</a>`);
  };

  return (
    <div className="rich-text-editor" style={{ display: "grid", gap: 4 }}>
      <div role="toolbar" aria-label="Formatting" style={styles.toolbar}>
        {COMMANDS.map((c) => (
          <button
            key={c.command}
            type="button"
            title={c.label}
            aria-label={c.label}
            style={{ ...styles.button, ...c.style }}
            disabled={disabled}
            // Keep the text selection: a button press would otherwise move focus away first.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => run(c.command)}
          >
            {c.text}
          </button>
        ))}
        <button type="button" style={styles.button} disabled={disabled} onMouseDown={(event) => event.preventDefault()} onClick={startLink}>
          Link
        </button>
        <button type="button" style={styles.button} disabled={disabled} onMouseDown={(event) => event.preventDefault()} onClick={() => run("unlink")}>
          Unlink
        </button>
      </div>
      {linkUrl !== null ? (
        <div style={styles.link}>
          <input
            className="p-inputtext p-inputtext-sm"
            aria-label="Link address"
            value={linkUrl}
            autoFocus
            onChange={(event) => setLinkUrl(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === "Enter") {
                event.preventDefault();
                applyLink();
              } else if (event.key === "Escape") setLinkUrl(null);
            }}
          />
          <button type="button" style={styles.button} onClick={applyLink}>
            Add link
          </button>
        </div>
      ) : null}
      <div
        id={id}
        ref={areaRef}
        role="textbox"
        aria-multiline="true"
        aria-labelledby={labelId}
        contentEditable={!disabled}
        suppressContentEditableWarning
        style={styles.area}
        onInput={emit}
        onPaste={(event) => {
          event.preventDefault();
          document.execCommand("insertText", false, event.clipboardData.getData("text/plain"));
          emit();
        }}
      />
    </div>
  );
}
