import type { CSSProperties, ReactNode } from "react";
import type { AnnotationDto } from "~/domain/annotations.server";

const styles = {
  card: {
    position: "absolute",
    left: 12,
    bottom: 12,
    width: "min(22rem, calc(100% - 24px))",
    maxHeight: "calc(100% - 24px)",
    overflow: "auto",
    padding: "12px 14px",
    borderRadius: 10,
    background: "rgba(255, 255, 255, 0.97)",
    color: "#1f2937",
    boxShadow: "0 4px 18px rgba(0, 0, 0, 0.35)",
    font: "14px/1.5 system-ui, sans-serif",
    zIndex: 2,
  },
  header: { display: "flex", alignItems: "flex-start", gap: 8 },
  title: { flex: 1, margin: 0, fontSize: "1rem", lineHeight: 1.35 },
  close: { border: 0, background: "transparent", fontSize: 20, lineHeight: 1, cursor: "pointer", color: "#4b5563", padding: "0 4px" },
  image: { display: "block", width: "100%", maxHeight: "12rem", objectFit: "cover", borderRadius: 6, margin: "8px 0 4px" },
  body: { overflowWrap: "anywhere" },
} satisfies Record<string, CSSProperties>;

/**
 * One annotation's content over the viewer: title, picture and rich text. The body is HTML the
 * server sanitised (app/lib/sanitize-html.server.ts) when it was saved and again when it was listed.
 */
export function AnnotationCard({
  annotation,
  number,
  onClose,
  children,
}: {
  annotation: Pick<AnnotationDto, "id" | "title" | "body" | "image_url">;
  number: number;
  onClose: () => void;
  /** Extra controls under the content (the tour's previous / next). */
  children?: ReactNode;
}) {
  const headingId = `annotation-card-${annotation.id}`;
  return (
    <section className="annotation-card" style={styles.card} aria-labelledby={headingId} data-testid="annotation-card">
      <div style={styles.header}>
        <h3 id={headingId} style={styles.title}>
          {number}. {annotation.title}
        </h3>
        <button type="button" style={styles.close} onClick={onClose} aria-label="Close annotation">
          ×
        </button>
      </div>
      {annotation.image_url ? <img src={annotation.image_url} alt="" style={styles.image} /> : null}
      {annotation.body ? (
        <div className="annotation-body" style={styles.body} dangerouslySetInnerHTML={{ __html: annotation.body }} />
      ) : null}
      {children}
    </section>
  );
}
