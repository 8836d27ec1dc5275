import { Link, useNavigate } from "@remix-run/react";
import { Button } from "primereact/button";
import { ConfirmDialog } from "primereact/confirmdialog";
import { Dialog } from "primereact/dialog";
import { Message } from "primereact/message";
import { ProgressBar } from "primereact/progressbar";
import { Tag } from "primereact/tag";
import { useCallback, useEffect, useRef, useState, type DragEvent } from "react";
import { useAuth } from "~/auth/auth-provider";
import { detectImageFormat } from "~/formats/media-format";
import { uploadImageSetScan, uploadModelFile, uploadVideoScan, type UploadDetails } from "~/components/upload-flows";
import { MAX_TAGS, tagProblem } from "~/domain/item-details";
import { EMPTY_DETAILS, ItemDetailsFields, readTags, type CategoryOption, type DetailsForm } from "~/components/item-details-fields";
import {
  allowsMoreFiles,
  checkVideo,
  classifyFile,
  formatBytes,
  hasScanCredits,
  IMAGE_EXTENSIONS,
  imageCountProblem,
  imageSetName,
  isScanKind,
  MESSAGES,
  MODEL_EXTENSIONS,
  nameFromFileName,
  validateSelection,
  VIDEO_EXTENSIONS,
  type FileKind,
  type UserQuotas,
  type VideoMetadata,
} from "~/lib/upload-rules";
import { useScanAvailability } from "~/components/use-scan-availability";
import { readMagicBytes, readVideoMetadata } from "~/lib/video-metadata";
import { useToast } from "./toast-provider";

const ACCEPT = [...MODEL_EXTENSIONS, ...IMAGE_EXTENSIONS, ...VIDEO_EXTENSIONS].map((ext) => `.${ext}`).join(",") + ",image/*,video/*";

type Phase = "select" | "uploading" | "done";
type Notice = { title: string; message: string };

/** Per-file and total bytes sent while uploading. */
interface Progress {
  perFile: number[];
  loaded: number;
  total: number;
}

/** The name a selection gets when the creator leaves the title empty (SPEC §4's default names). */
function defaultName(files: File[], kind: FileKind | null): string | undefined {
  if (files.length === 0 || !kind) return undefined;
  return kind === "image" ? imageSetName(files[0].name) : nameFromFileName(files[0].name);
}

/** The dialog's details as the upload flows send them. */
function uploadDetails(form: DetailsForm): UploadDetails {
  return {
    name: form.name,
    description: form.description,
    category_id: form.category_id || null,
    // A tag typed wrong while the bytes went up is left out rather than failing the upload (the button waits for valid ones).
    tags: readTags(form).tags.filter((tag) => tagProblem(tag) === null).slice(0, MAX_TAGS),
    license: form.license === EMPTY_DETAILS.license ? undefined : form.license,
  };
}

const percent = (loaded: number, total: number) => Math.round((loaded / Math.max(total, 1)) * 100);
const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The Upload dialog (SPEC §2, §4, §5): a model file, an image set or a video, checked against the
 * rules of ~/lib/upload-rules before anything is sent (the server checks them all again).
 */
export default function UploadDialog({ visible, onHide }: { visible: boolean; onHide: () => void }) {
  const { api, ready, firebaseUser } = useAuth();
  const toast = useToast();
  const navigate = useNavigate();
  const input = useRef<HTMLInputElement>(null);
  const [files, setFiles] = useState<File[]>([]);
  const [kind, setKind] = useState<FileKind | null>(null);
  const [videoMeta, setVideoMeta] = useState<VideoMetadata | null>(null);
  const [checking, setChecking] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [pendingTrim, setPendingTrim] = useState<{ file: File; meta: VideoMetadata } | null>(null);
  const [phase, setPhase] = useState<Phase>("select");
  const [progress, setProgress] = useState<Progress | null>(null);
  const [dragging, setDragging] = useState(false);
  // undefined while loading; null when it could not be read (the server still enforces credits).
  const [quotas, setQuotas] = useState<UserQuotas | null | undefined>(undefined);
  // Title, description, category, tags and licence: editable until the bytes are up (read then, issue 35 item 3).
  const [details, setDetails] = useState<DetailsForm>(EMPTY_DETAILS);
  const detailsRef = useRef(details);
  detailsRef.current = details;
  const [categories, setCategories] = useState<CategoryOption[]>([]);

  const signedIn = ready && firebaseUser !== null;
  useEffect(() => {
    if (!signedIn) return; // the token exists only once Firebase has restored the user
    let cancelled = false;
    api<UserQuotas>("/user/quotas")
      .then((q) => !cancelled && setQuotas(q))
      .catch(() => {
        if (cancelled) return;
        setQuotas(null);
        toast({ severity: "error", summary: "Error!", detail: MESSAGES.quotasUnavailable });
      });
    return () => {
      cancelled = true;
    };
  }, [api, toast, signedIn]);

  useEffect(() => {
    if (!visible) return;
    let cancelled = false;
    api<CategoryOption[]>("/categories")
      .then((list) => !cancelled && setCategories(list))
      .catch(() => undefined); // the category stays "No category"; everything else works
    return () => {
      cancelled = true;
    };
  }, [api, visible]);

  // Progress callbacks fire many times a second (300 files at once): render at most once a frame.
  const progressRef = useRef<Progress | null>(null);
  const frame = useRef<number | null>(null);
  const trackProgress = useCallback((index: number, loaded: number) => {
    const current = progressRef.current;
    if (!current) return;
    current.loaded += loaded - current.perFile[index];
    current.perFile[index] = loaded;
    frame.current ??= requestAnimationFrame(() => {
      frame.current = null;
      if (progressRef.current) setProgress({ ...progressRef.current, perFile: [...progressRef.current.perFile] });
    });
  }, []);
  useEffect(
    () => () => {
      if (frame.current !== null) cancelAnimationFrame(frame.current);
    },
    [],
  );

  const scansBlocked = quotas ? !hasScanCredits(quotas) : false;
  // Without scan tools on this server, a video or photo set is refused before anything is uploaded.
  const availability = useScanAvailability(visible);
  const scansUnavailable = availability && !availability.available ? availability.message : null;
  const countProblem = kind === "image" && files.length > 0 ? imageCountProblem(files.length) : null;
  const busy = phase === "uploading" || checking;

  const refuse = (refusal: { title?: string; message: string }) => {
    if (refusal.message === MESSAGES.noExtension) console.warn(`Upload refused: ${refusal.message}`); // SPEC §5: logged
    if (refusal.title) setNotice({ title: refusal.title, message: refusal.message });
    else toast({ severity: "error", summary: "Error!", detail: refusal.message });
  };

  const acceptVideo = (file: File, meta: VideoMetadata) => {
    setFiles([file]);
    setKind("video");
    setVideoMeta(meta);
  };

  /** Adds files to the selection, or refuses them and leaves the selection as it was (SPEC §5). */
  const addFiles = async (incoming: File[]) => {
    if (incoming.length === 0 || busy) return;
    const next = [...files, ...incoming];
    const result = validateSelection(next);
    if (!result.ok) return refuse(result);
    if (result.kind === "image") {
      setChecking(true);
      const heads = await Promise.all(incoming.map(readMagicBytes)).finally(() => setChecking(false));
      const bad = incoming.find((_, i) => !detectImageFormat(heads[i]));
      if (bad) return refuse({ message: `${bad.name} is not a JPEG, PNG, WebP, HEIC, TIFF or BMP image.` });
    }
    if (result.kind === "video") {
      const file = next[0];
      setChecking(true);
      let meta: VideoMetadata;
      try {
        meta = await readVideoMetadata(file);
      } catch {
        return refuse({ message: MESSAGES.videoMetadata });
      } finally {
        setChecking(false);
      }
      const verdict = checkVideo(meta);
      if (verdict.verdict === "refuse") return refuse(verdict);
      if (verdict.verdict === "confirm_trim") return setPendingTrim({ file, meta });
      return acceptVideo(file, meta);
    }
    setFiles(next);
    setKind(result.kind);
  };

  const clear = () => {
    setFiles([]);
    setDetails(EMPTY_DETAILS);
    setKind(null);
    setVideoMeta(null);
    setPhase("select");
    setProgress(null);
  };

  const remove = (index: number) => {
    const next = files.filter((_, i) => i !== index);
    const result = validateSelection(next);
    setFiles(next);
    setKind(result.ok ? result.kind : null);
    if (next.length === 0) setVideoMeta(null);
  };

  const finish = (to: string) => {
    setPhase("done");
    onHide();
    navigate(to);
  };

  const upload = async () => {
    if (files.length === 0 || !kind) return;
    progressRef.current = { perFile: files.map(() => 0), loaded: 0, total: files.reduce((n, f) => n + f.size, 0) };
    setProgress({ ...progressRef.current, perFile: [...progressRef.current.perFile] });
    setPhase("uploading");
    const readDetails = () => uploadDetails(detailsRef.current);
    try {
      if (kind === "model") {
        const itemId = await uploadModelFile({ api, file: files[0], details: readDetails, onProgress: (loaded) => trackProgress(0, loaded) });
        return finish(`/item/${itemId}`);
      }
      if (kind === "video") {
        await uploadVideoScan({ api, file: files[0], metadata: videoMeta!, details: readDetails, onProgress: (loaded) => trackProgress(0, loaded) });
        toast({ severity: "success", summary: "Success", detail: MESSAGES.videoUploaded });
      } else {
        await uploadImageSetScan({ api, files, details: readDetails, onFileProgress: (index, loaded) => trackProgress(index, loaded) });
        toast({ severity: "success", summary: "Success", detail: MESSAGES.imagesUploaded });
      }
      finish("/dashboard?refresh=true");
    } catch (error) {
      setPhase("select");
      setProgress(null);
      toast({ severity: "error", summary: "Error!", detail: MESSAGES.uploadFailed(errorMessage(error)) });
    }
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    void addFiles([...event.dataTransfer.files]);
  };

  const tagsProblem = readTags(details).problem;
  const uploadDisabled =
    files.length === 0 || busy || tagsProblem !== null || (isScanKind(kind) && (scansBlocked || scansUnavailable !== null)) || countProblem !== null || (kind === "video" && !videoMeta);

  const footer = (
    <div className="upload-actions">
      {phase === "done" ? (
        <>
          <Tag severity="success" value="Uploaded Successfully" />
          <Button label="Clear" outlined onClick={clear} />
        </>
      ) : (
        <>
          <Button label="Clear" outlined onClick={clear} disabled={files.length === 0 || busy} />
          {allowsMoreFiles(kind) && files.length > 0 ? (
            <Button label="Add More Files" outlined onClick={() => input.current?.click()} disabled={busy} />
          ) : null}
          <Button label="Upload" icon="pi pi-upload" onClick={upload} disabled={uploadDisabled} loading={phase === "uploading"} />
        </>
      )}
    </div>
  );

  return (
    <Dialog header="Upload" visible={visible} onHide={onHide} maximized footer={footer} data-testid="upload-dialog">
      <input
        ref={input}
        type="file"
        accept={ACCEPT}
        multiple
        hidden
        data-testid="upload-input"
        onChange={(event) => {
          void addFiles([...(event.target.files ?? [])]);
          event.target.value = "";
        }}
      />
      <div
        className={`upload-dropzone${dragging ? " is-dragging" : ""}`}
        role="button"
        tabIndex={0}
        onClick={() => !busy && input.current?.click()}
        onKeyDown={(event) => (event.key === "Enter" || event.key === " ") && !busy && input.current?.click()}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <i className={`pi ${checking ? "pi-spin pi-spinner" : "pi-cloud-upload"}`} aria-hidden="true" />
        <p>
          Drag and drop a .glb, .ply, .ksplat, .spz, .splat or .sog model, a set of 20–300 photos or one 16:9 video here, or click to choose
          files.
        </p>
      </div>
      {quotas ? (
        <p className="upload-quota" data-testid="upload-scan-quota">
          Scans left:{" "}
          {quotas.scan_quota === -1 ? "unlimited" : `${quotas.scan_credit}/${quotas.scan_quota}${quotas.topup_scan_credit > 0 ? ` (+${quotas.topup_scan_credit})` : ""}`}
        </p>
      ) : null}
      {scansUnavailable ? (
        <Message className="upload-message" severity="warn" text={scansUnavailable} data-testid="scans-unavailable" />
      ) : null}
      {/* Only where a scan could be meant: nothing chosen yet, or a video or photos (issue 18, item 7). */}
      {scansBlocked && kind !== "model" ? (
        <div className="upload-message upload-message-stack" data-testid="no-scan-credits">
          <Message severity="warn" text={MESSAGES.noScanCredits} />
          <Link to="/pricing" className="upload-upgrade-link">
            See plans and scan packages
          </Link>
        </div>
      ) : null}
      {countProblem ? <Message className="upload-message" severity="warn" text={countProblem.message} /> : null}
      {files.length > 0 ? (
        <ul className="upload-file-list" aria-label="Selected files">
          {files.map((file, index) => (
            <li key={`${file.name}-${index}`} className="upload-file">
              <span className="upload-file-name">{file.name}</span>
              <span className="upload-file-type">{classifyFile(file) ?? file.type}</span>
              <span className="upload-file-size">{formatBytes(file.size)}</span>
              {files.length > 1 && phase === "select" ? (
                <Button icon="pi pi-trash" text severity="danger" aria-label={`Remove ${file.name}`} onClick={() => remove(index)} disabled={busy} />
              ) : progress ? (
                <ProgressBar
                  className="upload-file-progress"
                  value={percent(progress.perFile[index] ?? 0, file.size)}
                  showValue={false}
                  aria-label={`${file.name} upload progress`}
                />
              ) : (
                <span />
              )}
            </li>
          ))}
        </ul>
      ) : null}
      {files.length > 0 && phase !== "done" ? (
        <section className="upload-details" aria-labelledby="upload-details-heading" data-testid="upload-details">
          <h2 id="upload-details-heading">Details</h2>
          <p className="item-panel-note">Optional, and editable while the files upload. You can change them later on the model's Edit page.</p>
          <ItemDetailsFields idPrefix="upload" form={details} onChange={setDetails} categories={categories} namePlaceholder={defaultName(files, kind)} />
        </section>
      ) : null}
      {phase === "uploading" && progress ? (
        <div className="upload-progress">
          <ProgressBar value={percent(progress.loaded, progress.total)} aria-label="Upload progress" data-testid="upload-total-progress" />
          <p className="upload-progress-text">
            {formatBytes(progress.loaded)} of {formatBytes(progress.total)}
          </p>
        </div>
      ) : null}
      <Dialog
        header={notice?.title}
        visible={notice !== null}
        onHide={() => setNotice(null)}
        style={{ width: "28rem" }}
        footer={<Button label="OK" onClick={() => setNotice(null)} autoFocus />}
      >
        <p>{notice?.message}</p>
      </Dialog>
      <ConfirmDialog
        visible={pendingTrim !== null}
        onHide={() => setPendingTrim(null)}
        header={MESSAGES.videoTooLongTitle}
        message={MESSAGES.videoTooLong}
        icon="pi pi-exclamation-triangle"
        acceptLabel="Continue"
        rejectLabel="Cancel"
        accept={() => {
          if (!pendingTrim) return;
          acceptVideo(pendingTrim.file, pendingTrim.meta);
          toast({ severity: "info", summary: "Info", detail: MESSAGES.videoTrimmed });
        }}
        reject={() => setPendingTrim(null)}
      />
    </Dialog>
  );
}
