import { Button } from "primereact/button";
import { InputText } from "primereact/inputtext";
import { useCallback, useEffect, useState } from "react";
import { useAuth } from "~/auth/auth-provider";
import type { ShareLinkDto } from "~/domain/share-links.server";
import { pluralize } from "~/lib/format";
import { remainingOfQuota } from "~/lib/quota-display";
import { CopyField } from "./copy-field";
import { useToast } from "./toast-provider";

interface ShareLinkList {
  links: ShareLinkDto[];
  link_quota: number;
  link_credit: number;
}

/** The Link tab of the Share / Embed dialog: the page link, and labelled share links that spend link credits. */
export function ShareLinksPanel({ itemId, pageUrl }: { itemId: string; pageUrl: string }) {
  const { api } = useAuth();
  const toast = useToast();
  const [list, setList] = useState<ShareLinkList | null>(null);
  const [label, setLabel] = useState("");
  const [busy, setBusy] = useState(false);

  const fail = useCallback((error: unknown) => toast({ severity: "error", summary: "Error!", detail: (error as Error).message }), [toast]);
  const reload = useCallback(() => api<ShareLinkList>(`/item/${itemId}/share`).then(setList, fail), [api, itemId, fail]);
  useEffect(() => {
    void reload();
  }, [reload]);

  const create = async () => {
    setBusy(true);
    try {
      await api(`/item/${itemId}/share`, { method: "POST", body: { label: label.trim() || null } });
      setLabel("");
      toast({ severity: "success", summary: "Link created", detail: "Copy it and share it anywhere." });
      await reload();
    } catch (error) {
      fail(error);
    } finally {
      setBusy(false);
    }
  };

  const revoke = async (link: ShareLinkDto) => {
    try {
      await api(`/item/${itemId}/share/${link.id}`, { method: "DELETE" });
      await reload();
    } catch (error) {
      fail(error);
    }
  };

  const noCredit = list !== null && list.link_quota !== -1 && list.link_credit <= 0;
  return (
    <div className="share-panel">
      <CopyField label="Model page link" value={pageUrl} testId="share-page-link" />
      <h3>Share links</h3>
      <p className="share-note">
        A short link you can turn off later, with a count of opens. Each new link uses one link credit
        {list ? (
          <>
            {" "}
            — <span data-testid="link-credits">{remainingOfQuota(list.link_credit, list.link_quota)}</span> left this period
          </>
        ) : null}
        .
      </p>
      <form
        className="share-create"
        onSubmit={(event) => {
          event.preventDefault();
          void create();
        }}
      >
        <label htmlFor="share-link-label" className="sr-only">
          Label for the new link (optional)
        </label>
        <InputText id="share-link-label" value={label} maxLength={80} placeholder="Label, e.g. Newsletter (optional)" onChange={(e) => setLabel(e.target.value)} />
        <Button type="submit" label="Create link" icon="pi pi-link" loading={busy} disabled={noCredit} />
      </form>
      {noCredit ? <p className="share-warn">No link credits left this period. Top up links or wait for the next cycle.</p> : null}
      <ul className="share-list" data-testid="share-links">
        {list?.links.map((link) => (
          <li key={link.id}>
            <CopyField label={link.label ?? "Share link"} value={link.url} />
            <span className="share-meta">{pluralize(link.open_count, "open")}</span>
            <Button type="button" size="small" text severity="danger" label="Turn off" onClick={() => void revoke(link)} aria-label={`Turn off ${link.label ?? "share link"}`} />
          </li>
        ))}
      </ul>
    </div>
  );
}
