import { Dialog } from "primereact/dialog";
import { useEffect, useState } from "react";
import { TabPanel, TabView } from "primereact/tabview";
import type { ItemDto } from "~/domain/item-presenter";
import { shareUrl } from "~/lib/embed-code";
import type { CameraView } from "~/viewer/camera-view";
import { EmbedPanel } from "./embed-panel";
import { ShareLinksPanel } from "./share-links-panel";
import { ViewerSettingsPanel } from "./viewer-settings-panel";
import type { ViewerPreview } from "./viewer-preview";

/**
 * The owner's Share / Embed dialog on /item/{id}: links (share links spend link credits), embed code and
 * registered embeds (embed quota, watermark), and how the viewer opens. A private model can only be set up.
 */
export function ShareEmbedDialog({
  item,
  shareOrigin,
  visible,
  onHide,
  getCurrentView,
  captureView,
  onChange,
  preview,
}: {
  item: ItemDto;
  shareOrigin: string;
  visible: boolean;
  onHide: () => void;
  getCurrentView: () => CameraView | null;
  captureView: () => Promise<Blob> | null;
  /** Something the page shows changed (watermark, settings): reload its data. */
  onChange: () => void;
  /** Shows the Viewer tab's unsaved choices on the page's viewer. */
  preview?: ViewerPreview;
}) {
  const shared = item.visibility !== "private";
  const [tab, setTab] = useState(0);
  // On the Viewer tab the page's viewer previews the choices: the mask does not dim it then.
  const viewerTab = tab === (shared ? 2 : 0);
  // The preview is on the page's viewer: bring it into sight when the Viewer tab shows (a phone has scrolled down
  // to the button) — on opening too, where it is the only tab (a private model).
  useEffect(() => {
    if (visible && viewerTab) document.querySelector(".item-viewer-frame")?.scrollIntoView({ block: "start", behavior: "smooth" });
  }, [visible, viewerTab]);
  return (
    <Dialog
      header="Share / Embed"
      visible={visible}
      onHide={onHide}
      style={{ width: "min(42rem, 96vw)" }}
      className={viewerTab ? "share-dialog-viewer-tab" : undefined}
      dismissableMask
    >
      {shared ? null : (
        <p className="share-warn" data-testid="share-private-note">
          This model is private. Make it public or unlisted to share or embed it.
        </p>
      )}
      <TabView activeIndex={tab} onTabChange={(event) => setTab(event.index)}>
        {/* Only the tabs shown: TabView counts a null child as a tab's place, and the Viewer tab's index must be its place. */}
        {[
          shared ? (
            <TabPanel key="link" header="Link">
              <ShareLinksPanel itemId={item.id} pageUrl={shareUrl(shareOrigin, item.id)} />
            </TabPanel>
          ) : null,
          shared ? (
            <TabPanel key="embed" header="Embed">
              <EmbedPanel item={item} shareOrigin={shareOrigin} onWatermarkChange={onChange} />
            </TabPanel>
          ) : null,
          <TabPanel key="viewer" header="Viewer">
            <ViewerSettingsPanel
              key={item.updated_at}
              itemId={item.id}
              settings={item.settings}
              getCurrentView={getCurrentView}
              captureView={captureView}
              onSaved={onChange}
              preview={preview}
            />
          </TabPanel>,
        ].filter((panel) => panel !== null)}
      </TabView>
    </Dialog>
  );
}
