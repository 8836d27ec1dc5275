import { Button } from "primereact/button";
import { Checkbox } from "primereact/checkbox";
import { InputSwitch } from "primereact/inputswitch";
import { InputText } from "primereact/inputtext";
import { Tag } from "primereact/tag";
import { useCallback, useEffect, useState } from "react";
import { useAuth } from "~/auth/auth-provider";
import type { EmbedDto } from "~/domain/embeds.server";
import { embedCode } from "~/lib/embed-code";
import { pluralize } from "~/lib/format";
import { remainingOfQuota } from "~/lib/quota-display";
import { CopyField } from "./copy-field";
import { useToast } from "./toast-provider";

interface EmbedList {
  embeds: EmbedDto[];
  embed_quota: number;
  embed_credit: number;
  watermark_removal: boolean;
}

/**
 * The Embed tab of the Share / Embed dialog: iframe code with display options, the watermark switch (plans
 * with watermark removal only), and registered embeds, which count against the plan's embed quota.
 */
export function EmbedPanel({
  item,
  shareOrigin,
  onWatermarkChange,
}: {
  item: { id: string; name: string; is_watermark_enabled: boolean };
  shareOrigin: string;
  onWatermarkChange: () => void;
}) {
  const { api } = useAuth();
  const toast = useToast();
  const [list, setList] = useState<EmbedList | null>(null);
  const [label, setLabel] = useState("");
  const [busy, setBusy] = useState(false);
  const [autorotate, setAutorotate] = useState(false);
  const [responsive, setResponsive] = useState(false);
  const [annotations, setAnnotations] = useState(true);

  const fail = useCallback((error: unknown) => toast({ severity: "error", summary: "Error!", detail: (error as Error).message }), [toast]);
  const reload = useCallback(() => api<EmbedList>(`/item/${item.id}/embed`).then(setList, fail), [api, item.id, fail]);
  useEffect(() => {
    void reload();
  }, [reload]);

  const run = async (work: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await work();
      await reload();
    } catch (error) {
      fail(error);
    } finally {
      setBusy(false);
    }
  };

  const setWatermark = (enabled: boolean) =>
    run(async () => {
      await api(`/item/${item.id}/embed/watermark`, { method: "PATCH", body: { is_watermark_enabled: enabled } });
      onWatermarkChange();
    });

  const options = { autorotate: autorotate ? true : null, annotations };
  const noCredit = list !== null && list.embed_quota !== -1 && list.embed_credit <= 0;
  return (
    <div className="share-panel">
      <fieldset className="embed-options">
        <legend>Display</legend>
        <span className="embed-option">
          <Checkbox inputId="embed-autorotate" checked={autorotate} onChange={(e) => setAutorotate(!!e.checked)} />
          <label htmlFor="embed-autorotate">Rotate slowly</label>
        </span>
        <span className="embed-option">
          <Checkbox inputId="embed-annotations" checked={annotations} onChange={(e) => setAnnotations(!!e.checked)} />
          <label htmlFor="embed-annotations">Show annotations</label>
        </span>
      </fieldset>
      <span className="embed-option">
        <Checkbox inputId="embed-responsive" checked={responsive} onChange={(e) => setResponsive(!!e.checked)} />
        <label htmlFor="embed-responsive">Responsive: as wide as the page allows (4:3) instead of 640 × 480</label>
      </span>
      <CopyField label="Embed code" value={embedCode(shareOrigin, item, { ...options, responsive })} multiline testId="dialog-embed-code" />
      <div className="embed-option">
        <InputSwitch
          inputId="embed-watermark-switch"
          checked={item.is_watermark_enabled}
          disabled={busy || (!list?.watermark_removal && item.is_watermark_enabled)}
          onChange={(e) => void setWatermark(!!e.value)}
        />
        <label htmlFor="embed-watermark-switch">Show “Made with Scanroom”</label>
      </div>
      {list && !list.watermark_removal ? <p className="share-note">Removing the watermark needs the Growth or Pro plan.</p> : null}

      <h3>Registered embeds</h3>
      <p className="share-note">
        Name each place you embed this model to count its loads and turn it off later
        {list ? (
          <>
            {" "}
            — <span data-testid="embed-credits">{remainingOfQuota(list.embed_credit, list.embed_quota)}</span> embeds left on your plan
          </>
        ) : null}
        .
      </p>
      <form
        className="share-create"
        onSubmit={(event) => {
          event.preventDefault();
          void run(async () => {
            await api(`/item/${item.id}/embed`, { method: "POST", body: { label: label.trim() || null } });
            setLabel("");
          });
        }}
      >
        <label htmlFor="embed-label" className="sr-only">
          Where you will embed it (optional)
        </label>
        <InputText id="embed-label" value={label} maxLength={80} placeholder="Where, e.g. Shop homepage (optional)" onChange={(e) => setLabel(e.target.value)} />
        <Button type="submit" label="Register embed" icon="pi pi-code" loading={busy} disabled={noCredit} />
      </form>
      {noCredit ? <p className="share-warn">All the embeds your plan allows are in use. Turn one off or upgrade your plan.</p> : null}
      <ul className="share-list" data-testid="registered-embeds">
        {list?.embeds.map((embed) => (
          <li key={embed.id}>
            <CopyField label={embed.label ?? "Embed code"} value={embed.code} multiline />
            <span className="share-meta">
              {pluralize(embed.load_count, "load")}{" "}
              {embed.live ? <Tag value="Live" severity="success" /> : <Tag value="Poster only (plan limit)" severity="warning" />}
            </span>
            <Button
              type="button"
              size="small"
              text
              severity="danger"
              label="Turn off"
              onClick={() => void run(() => api(`/item/${item.id}/embed/${embed.id}`, { method: "DELETE" }))}
              aria-label={`Turn off ${embed.label ?? "embed"}`}
            />
          </li>
        ))}
      </ul>
    </div>
  );
}
