import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { pluralize } from "~/lib/format";

export interface ItemCardData {
  id: string;
  name: string;
  status: string;
  thumbnail_url: string | null;
  model_type: string;
  /** "scene" for a Builder scene (several models); absent or "model" otherwise. */
  kind?: string;
  view_count: number;
  /** Featured by an admin: marked on the card (issue 35 item 5). */
  is_featured?: boolean;
  owner: { id: string; display_name: string | null };
}

/** One model in a grid (explore, dashboard, profile). */
export function ItemCard({ item, children, showOwner = true }: { item: ItemCardData; children?: ReactNode; showOwner?: boolean }) {
  return (
    <article className="item-card" data-testid="item-card" data-item-id={item.id}>
      <Link to={`/item/${item.id}`} className="item-card-thumb" tabIndex={-1} aria-hidden="true">
        {item.thumbnail_url ? (
          <img src={item.thumbnail_url} alt="" loading="lazy" />
        ) : (
          <span className="item-card-placeholder">
            <i className={item.kind === "scene" ? "pi pi-objects-column" : "pi pi-box"} />
            <small>{item.kind === "scene" ? "SCENE" : item.model_type.toUpperCase()}</small>
          </span>
        )}
      </Link>
      <div className="item-card-body">
        {item.is_featured ? (
          <p className="item-card-badge" data-testid="featured-badge">
            <i className="pi pi-star-fill" aria-hidden="true" /> Featured
          </p>
        ) : null}
        <h3 className="item-card-title">
          <Link to={`/item/${item.id}`}>{item.name}</Link>
        </h3>
        {showOwner ? (
          <p className="item-card-meta">
            by <Link to={`/u/${item.owner.id}`}>{item.owner.display_name ?? "Anonymous"}</Link> ·{" "}
            <span data-testid="item-views">{pluralize(item.view_count, "view")}</span>
          </p>
        ) : null}
        {children}
      </div>
    </article>
  );
}
