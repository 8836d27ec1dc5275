import { Button } from "primereact/button";
import type { Ref } from "react";

/** The end of a paged grid: a sentinel for infinite scroll and a Load more button for everyone else. */
export function LoadMore({
  hasMore,
  loading,
  onLoadMore,
  sentinel,
}: {
  hasMore: boolean;
  loading: boolean;
  onLoadMore: () => void;
  sentinel: Ref<HTMLDivElement>;
}) {
  if (!hasMore) return null;
  return (
    <div className="explore-more" ref={sentinel}>
      <Button label={loading ? "Loading…" : "Load more"} outlined onClick={onLoadMore} disabled={loading} data-testid="load-more" />
    </div>
  );
}
