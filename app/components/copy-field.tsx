import { Button } from "primereact/button";
import { useId, useState } from "react";

/** A read-only value (share link, embed code) with a Copy button. */
export function CopyField({ label, value, multiline = false, testId }: { label: string; value: string; multiline?: boolean; testId?: string }) {
  const id = useId();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      // Clipboard refused (permissions, insecure origin): select the text so the user can copy it.
      (document.getElementById(id) as HTMLInputElement | HTMLTextAreaElement | null)?.select();
      return;
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 2000);
  };
  return (
    <div className="copy-field">
      <label htmlFor={id}>{label}</label>
      <div className="copy-field-row">
        {multiline ? (
          <textarea id={id} className="p-inputtext" readOnly value={value} rows={3} data-testid={testId} onFocus={(e) => e.currentTarget.select()} />
        ) : (
          <input id={id} className="p-inputtext" readOnly value={value} data-testid={testId} onFocus={(e) => e.currentTarget.select()} />
        )}
        <Button type="button" icon={copied ? "pi pi-check" : "pi pi-copy"} label={copied ? "Copied" : "Copy"} outlined onClick={copy} aria-label={`Copy ${label.toLowerCase()}`} />
      </div>
    </div>
  );
}
