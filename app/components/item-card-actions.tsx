import { Link } from "@remix-run/react";

/**
 * A dashboard card's actions in one row of one style (issue 35 item 8): navigation as links (Open, Edit), the
 * rest as buttons (Rename, Delete), drawn alike as words. Each has its name as aria-label too, so a card too
 * narrow for the four words (a container query in site.css) shows one row of named icons instead of wrapping.
 */
export function ItemCardActions({ itemId, onRename, onDelete }: { itemId: string; onRename: () => void; onDelete: () => void }) {
  return (
    <div className="item-card-actions">
      <Link to={`/item/${itemId}`} className="card-action" aria-label="Open" title="Open">
        <i className="pi pi-eye" aria-hidden="true" />
        <span className="card-action-label">Open</span>
      </Link>
      <Link to={`/item/${itemId}/edit`} className="card-action" aria-label="Edit" title="Edit">
        <i className="pi pi-pencil" aria-hidden="true" />
        <span className="card-action-label">Edit</span>
      </Link>
      <button type="button" className="card-action" aria-label="Rename" title="Rename" onClick={onRename}>
        <i className="pi pi-tag" aria-hidden="true" />
        <span className="card-action-label">Rename</span>
      </button>
      <button type="button" className="card-action card-action-danger" aria-label="Delete" title="Delete" onClick={onDelete}>
        <i className="pi pi-trash" aria-hidden="true" />
        <span className="card-action-label">Delete</span>
      </button>
    </div>
  );
}
