import { Button } from "primereact/button";
import { useState } from "react";
import { useAuth } from "~/auth/auth-provider";
import { useToast } from "~/components/toast-provider";
import type { ItemDto } from "~/domain/item-presenter";
import { DOWNLOAD_LABELS, type DownloadFileDto, type ItemDownloadsDto } from "~/domain/downloads";
import { formatBytes } from "~/lib/upload-rules";
import { LicenseNote } from "./license-note";

/** Whether the model page has a Download panel for this visitor (its owner, or anyone once downloads are allowed). */
export function showsDownloads(item: Pick<ItemDto, "is_owner" | "allow_downloads" | "kind">): boolean {
  return item.kind !== "scene" && (item.is_owner || item.allow_downloads);
}

/**
 * The model page's downloads (issue 18 item 1): a menu of the files this visitor may download, each a
 * signed link that saves the plain file, and for its owner the "allow downloads" setting. The list is
 * asked for each time the menu opens, because the links expire after a few minutes.
 */
export function DownloadsPanel({
  item,
  saving,
  onAllowDownloads,
}: {
  item: Pick<ItemDto, "id" | "is_owner" | "allow_downloads" | "kind" | "license">;
  saving: boolean;
  onAllowDownloads: (allow: boolean) => void;
}) {
  const { api } = useAuth();
  const toast = useToast();
  const [files, setFiles] = useState<DownloadFileDto[] | null>(null);
  const [loading, setLoading] = useState(false);
  if (!showsDownloads(item)) return null;

  const toggle = async () => {
    if (files) return setFiles(null);
    setLoading(true);
    try {
      setFiles((await api<ItemDownloadsDto>(`/item/${item.id}/downloads`)).files);
    } catch (error) {
      toast({ severity: "error", summary: "Error!", detail: (error as Error).message });
    } finally {
      setLoading(false);
    }
  };

  const photos = files?.filter((file) => file.kind === "photo") ?? [];
  const others = files?.filter((file) => file.kind !== "photo") ?? [];
  return (
    <section className="item-panel" aria-labelledby="downloads-heading">
      <h2 id="downloads-heading">Download</h2>
      <Button
        size="small"
        outlined
        icon="pi pi-download"
        label={files ? "Hide files" : "Download files"}
        loading={loading}
        aria-expanded={!!files}
        aria-controls="download-menu"
        data-testid="download-menu-button"
        onClick={() => void toggle()}
      />
      {/* Whoever downloads sees on what terms (issue 35 item 4). */}
      <LicenseNote license={item.license} testId="download-license" />
      {files ? (
        <div id="download-menu" className="download-menu" data-testid="download-menu">
          {files.length === 0 ? <p className="item-panel-note">Nothing to download yet.</p> : null}
          <ul>
            {others.map((file) => (
              <DownloadLink key={file.url} file={file} />
            ))}
            {others
              .filter((file) => file.format === "glb" && (file.kind === "mesh" || file.kind === "model"))
              .map((file) => (
                <UsdzLink key={`usdz-${file.url}`} glb={file} />
              ))}
          </ul>
          {photos.length > 0 ? (
            <details>
              <summary>Source photos ({photos.length})</summary>
              <ul>
                {photos.map((file) => (
                  <DownloadLink key={file.url} file={file} label={file.file_name} />
                ))}
              </ul>
            </details>
          ) : null}
        </div>
      ) : null}
      {item.is_owner ? (
        <>
          <label className="download-allow">
            <input
              type="checkbox"
              checked={item.allow_downloads}
              disabled={saving}
              data-testid="allow-downloads"
              onChange={(event) => onAllowDownloads(event.target.checked)}
            />{" "}
            Let others download this model
          </label>
          <p className="item-panel-note">
            {item.allow_downloads
              ? "People who can see this model can download its model files under its licence. Your source video or photos stay yours."
              : "Only you can download its files."}
          </p>
        </>
      ) : null}
    </section>
  );
}

function DownloadLink({ file, label = DOWNLOAD_LABELS[file.kind] }: { file: DownloadFileDto; label?: string }) {
  return (
    <li>
      {/* The signed link answers with Content-Disposition: attachment, so it saves even from another origin. */}
      <a href={file.url} download={file.file_name} data-testid="download-link" data-kind={file.kind}>
        {label}
      </a>{" "}
      <span className="item-panel-note">
        {file.format} · {formatBytes(file.size)}
      </span>
    </li>
  );
}

/**
 * A USDZ of a GLB for Apple's AR Quick Look. The server keeps no USDZ: it is made here, in the browser,
 * from the GLB fetched through its signed link, by the viewer's own exporter (app/viewer/usdz-from-glb.ts).
 */
function UsdzLink({ glb }: { glb: DownloadFileDto }) {
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const save = async () => {
    setBusy(true);
    try {
      const response = await fetch(glb.url);
      if (!response.ok) throw new Error(`Failed to download from URL: ${response.status}`);
      const { usdzFromGlb } = await import("~/viewer/usdz-from-glb");
      const usdz = await usdzFromGlb(await response.arrayBuffer());
      const url = URL.createObjectURL(usdz);
      const link = document.createElement("a");
      link.href = url;
      link.download = glb.file_name.replace(/\.glb$/i, ".usdz");
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch (error) {
      toast({ severity: "error", summary: "Error!", detail: `Could not make the USDZ: ${(error as Error).message}` });
    } finally {
      setBusy(false);
    }
  };
  return (
    <li>
      <Button link size="small" className="download-usdz" data-testid="download-usdz" loading={busy} onClick={() => void save()}>
        {glb.kind === "mesh" ? "Textured mesh for AR (.usdz)" : "Model for AR (.usdz)"}
      </Button>{" "}
      <span className="item-panel-note">made in your browser</span>
    </li>
  );
}
