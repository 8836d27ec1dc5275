import { useNavigate } from "@remix-run/react";
import { Button } from "primereact/button";
import { Dialog } from "primereact/dialog";
import { ProgressBar } from "primereact/progressbar";
import { Tag } from "primereact/tag";
import { useRef, useState, type DragEvent } from "react";
import { useAuth } from "~/auth/auth-provider";
import { uploadModelFile } from "~/lib/upload-flows";
import { allowsMoreFiles, classifyFile, formatBytes, validateSelection, type FileKind } from "~/lib/upload-rules";
import { useToast } from "./toast-provider";

const ACCEPT = ".glb,.ply,.ksplat";
const ALLOWED_KINDS: FileKind[] = ["model"];

type Phase = "select" | "uploading" | "done";

export default function UploadDialog({ visible, onHide }: { visible: boolean; onHide: () => void }) {
  const { api } = useAuth();
  const toast = useToast();
  const navigate = useNavigate();
  const input = useRef<HTMLInputElement>(null);
  const [files, setFiles] = useState<File[]>([]);
  const [kind, setKind] = useState<FileKind | null>(null);
  const [phase, setPhase] = useState<Phase>("select");
  const [progress, setProgress] = useState(0);
  const [dragging, setDragging] = useState(false);

  const addFiles = (incoming: File[]) => {
    const next = [...files, ...incoming];
    const result = validateSelection(next, ALLOWED_KINDS);
    if (!result.ok) {
      // The selection is reverted to what it was (SPEC §5).
      toast({ severity: "error", summary: result.title ?? "Error!", detail: result.message });
      if (!validateSelection(incoming, ALLOWED_KINDS).ok) console.warn(result.message);
      return;
    }
    setFiles(next);
    setKind(result.kind);
  };

  const clear = () => {
    setFiles([]);
    setKind(null);
    setPhase("select");
    setProgress(0);
  };

  const remove = (index: number) => {
    const next = files.filter((_, i) => i !== index);
    setFiles(next);
    const result = validateSelection(next, ALLOWED_KINDS);
    setKind(result.ok ? result.kind : null);
  };

  const upload = async () => {
    const file = files[0];
    if (!file) return;
    setPhase("uploading");
    setProgress(0);
    try {
      const itemId = await uploadModelFile({
        api,
        file,
        onProgress: (loaded, total) => setProgress(Math.round((loaded / Math.max(total, 1)) * 100)),
      });
      setPhase("done");
      onHide();
      navigate(`/item/${itemId}`);
    } catch (error) {
      setPhase("select");
      toast({
        severity: "error",
        summary: "Error!",
        detail: `File not uploaded. Error: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    addFiles([...event.dataTransfer.files]);
  };

  const footer = (
    <div className="upload-actions">
      {phase === "done" ? (
        <>
          <Tag severity="success" value="Uploaded Successfully" />
          <Button label="Clear" outlined onClick={clear} />
        </>
      ) : (
        <>
          <Button label="Clear" outlined onClick={clear} disabled={files.length === 0 || phase === "uploading"} />
          {allowsMoreFiles(kind) && files.length > 0 ? (
            <Button label="Add More Files" outlined onClick={() => input.current?.click()} disabled={phase === "uploading"} />
          ) : null}
          <Button label="Upload" icon="pi pi-upload" onClick={upload} disabled={files.length === 0 || phase === "uploading"} loading={phase === "uploading"} />
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
          addFiles([...(event.target.files ?? [])]);
          event.target.value = "";
        }}
      />
      <div
        className={`upload-dropzone${dragging ? " is-dragging" : ""}`}
        role="button"
        tabIndex={0}
        onClick={() => input.current?.click()}
        onKeyDown={(event) => (event.key === "Enter" || event.key === " ") && input.current?.click()}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <i className="pi pi-cloud-upload" aria-hidden="true" />
        <p>Drag and drop a .glb, .ply or .ksplat model here, or click to choose a file.</p>
      </div>
      {files.length > 0 ? (
        <ul className="upload-file-list" aria-label="Selected files">
          {files.map((file, index) => (
            <li key={`${file.name}-${index}`} className="upload-file">
              <span className="upload-file-name">{file.name}</span>
              <span className="upload-file-type">{classifyFile(file) ?? file.type}</span>
              <span className="upload-file-size">{formatBytes(file.size)}</span>
              {files.length > 1 && phase === "select" ? (
                <Button icon="pi pi-trash" text severity="danger" aria-label={`Remove ${file.name}`} onClick={() => remove(index)} />
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {phase === "uploading" ? (
        <div className="upload-progress">
          <ProgressBar value={progress} aria-label="Upload progress" />
        </div>
      ) : null}
    </Dialog>
  );
}
