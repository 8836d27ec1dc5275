import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { Locator, Page } from "@playwright/test";
import { expect, registerAndSignIn, test } from "./fixtures";
import { SHARED_DATA } from "../setup/shared-data";

// Annotations, tours and the measuring tool (issue 6), end to end in Chromium: the owner places
// hotspots by clicking the rendered model (a mesh and a splat), edits and reorders them, plays the
// tour and sets the real-world scale; a signed-out visitor sees the hotspots and measures.
const DATA = SHARED_DATA;
// Software WebGL (SwiftShader) draws every frame on the CPU: a smaller window keeps orbiting cheap.
test.use({ viewport: { width: 1100, height: 720 } });

async function uploadThroughDialog(page: Page, file: string): Promise<string> {
  await page.getByTestId("new-model").click();
  await page.getByTestId("upload-input").setInputFiles(file);
  await page.getByTestId("upload-dialog").getByRole("button", { name: "Upload" }).click();
  await page.waitForURL(/\/item\/[0-9a-f-]{36}$/);
  return page.url().split("/").pop()!;
}

async function viewerReady(page: Page): Promise<Locator> {
  const viewer = page.getByTestId("model-viewer");
  await expect(viewer).toHaveAttribute("data-state", "ready", { timeout: 90_000 });
  // The add-ons (hotspots, measuring) are ready once the viewer's tools show.
  await expect(page.getByRole("button", { name: "Measure" })).toBeVisible();
  return viewer;
}

/** Clicks the model at an offset (CSS px) from the middle of the viewer. */
async function clickModel(page: Page, viewer: Locator, dx = 0, dy = 0) {
  const box = (await viewer.boundingBox())!;
  await page.mouse.click(box.x + box.width / 2 + dx, box.y + box.height / 2 + dy);
}

/** Orbits the camera by dragging across the viewer (starting clear of the hotspot in the middle). */
async function orbit(page: Page, viewer: Locator, dx: number) {
  const box = (await viewer.boundingBox())!;
  const x = box.x + box.width / 4;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx / 2, y, { steps: 2 });
  await page.mouse.move(x + dx, y, { steps: 2 });
  await page.mouse.up();
}

/** How far (CSS px) a hotspot marker is from the middle of the viewer. */
async function offCentre(viewer: Locator, marker: Locator): Promise<number> {
  const box = (await viewer.boundingBox())!;
  const at = await marker.boundingBox();
  if (!at) return Number.POSITIVE_INFINITY;
  return Math.hypot(at.x + at.width / 2 - (box.x + box.width / 2), at.y + at.height / 2 - (box.y + box.height / 2));
}

async function measureTwoPoints(page: Page, viewer: Locator) {
  await page.getByRole("button", { name: "Measure" }).click();
  await expect(page.getByTestId("measure-result")).toHaveText("Click two points on the model to measure.");
  await clickModel(page, viewer, -12, 0);
  await clickModel(page, viewer, 12, 6);
}

test("an owner annotates a model, reorders, plays the tour and sets its scale; a visitor sees the hotspots and measures", async ({ page, browser, consoleErrors }) => {
  test.setTimeout(300_000); // two WebGL pages in software rendering
  await registerAndSignIn(page, { name: "Annotating Ann" });
  const itemId = await uploadThroughDialog(page, path.join(DATA, "models/cat.glb"));
  await page.locator("#item-visibility").selectOption("public");
  await expect(page.getByTestId("visibility-help")).toHaveText("Anyone can find it on Explore and on your profile.");

  await page.goto(`/item/${itemId}/edit`);
  const viewer = await viewerReady(page);
  const editor = page.getByTestId("annotation-editor");
  await expect(editor.getByTestId("annotation-quota")).toHaveText("0 placed · your plan allows 5 per model");

  // Place two hotspots by clicking the rendered mesh, from two different views.
  await editor.getByRole("button", { name: "Add annotation" }).click();
  await expect(editor.getByText("Click the model where the annotation goes.")).toBeVisible();
  await clickModel(page, viewer);
  await expect(editor.getByTestId("annotation-row")).toHaveText(["1. Annotation 1"]);
  await editor.getByLabel("Title").fill("Ear");
  await editor.getByRole("textbox", { name: "Text" }).click();
  await page.keyboard.type("Soft and ");
  await editor.getByRole("button", { name: "Bold" }).click();
  await page.keyboard.type("pointy");
  await editor.getByRole("button", { name: "Save annotation" }).click();
  await expect(editor.getByTestId("annotation-row")).toHaveText(["1. Ear"]);

  await orbit(page, viewer, 220);
  await editor.getByRole("button", { name: "Add annotation" }).click();
  await clickModel(page, viewer);
  await expect(editor.getByTestId("annotation-row")).toHaveText(["1. Ear", "2. Annotation 2"]);
  await editor.getByLabel("Title").fill("Tail");
  await editor.getByRole("button", { name: "Save annotation" }).click();
  await expect(editor.getByTestId("annotation-row")).toHaveText(["1. Ear", "2. Tail"]);
  await expect(page.getByRole("button", { name: /^Annotation \d: / })).toHaveCount(2);

  // Reorder with the keyboard on the drag handle: Space picks up, ArrowUp moves, Space drops.
  // Each step waits for what a screen reader hears (dnd-kit's live region).
  const announcement = editor.locator('[id^="DndLiveRegion"]');
  await editor.getByRole("button", { name: "Reorder Tail" }).focus();
  await page.keyboard.press("Space");
  await expect(announcement).toHaveText("Picked up Tail, position 2 of 2.");
  await page.keyboard.press("ArrowUp");
  await expect(announcement).toHaveText("Tail is over position 1 of 2.");
  await page.keyboard.press("Space");
  await expect(announcement).toHaveText("Dropped Tail at position 1 of 2.");
  await expect(editor.getByTestId("annotation-row")).toHaveText(["1. Tail", "2. Ear"]);

  // The tour steps through them in order, flying the camera to the view saved with each: each
  // hotspot was placed by clicking the middle of the view, so there it is again when its stop shows.
  const tail = page.getByRole("button", { name: "Annotation 1: Tail" });
  const ear = page.getByRole("button", { name: "Annotation 2: Ear" });
  await orbit(page, viewer, -300);
  await expect.poll(() => offCentre(viewer, tail)).toBeGreaterThan(20);
  await page.getByRole("button", { name: "Play tour" }).click();
  const card = page.getByTestId("annotation-card");
  await expect(card.getByRole("heading")).toHaveText("1. Tail");
  await expect(card.getByText("Stop 1 of 2")).toBeVisible();
  await expect.poll(() => offCentre(viewer, tail)).toBeLessThan(6);
  await card.getByRole("button", { name: "Next ›" }).click();
  await expect(card.getByRole("heading")).toHaveText("2. Ear");
  await expect(card.getByText("Stop 2 of 2")).toBeVisible();
  await expect(card.locator("b, strong")).toHaveText("pointy");
  await expect(card.getByRole("button", { name: "Next ›" })).toBeDisabled();
  await expect.poll(() => offCentre(viewer, ear)).toBeLessThan(6);
  expect(await offCentre(viewer, tail)).toBeGreaterThan(20);
  await card.getByRole("button", { name: "‹ Previous" }).click();
  await expect(card.getByRole("heading")).toHaveText("1. Tail");
  await page.getByRole("button", { name: "End tour" }).click();
  await expect(card).toHaveCount(0);

  // Real-world scale from one known length: measure it, say it is 10 cm.
  await measureTwoPoints(page, viewer);
  await expect(page.getByTestId("measure-result")).toContainText(/^Distance: [\d.]+ m \(scale not set by the owner/);
  await page.getByLabel("Its real length").fill("10");
  await page.getByLabel("Unit of the real length").selectOption("cm");
  await page.getByRole("button", { name: "Set scale" }).click();
  await expect(page.getByTestId("measure-result")).toHaveText("Distance: 0.1 m");
  await expect(page.getByTestId("scale-current")).toContainText(/^One model unit is [\d.]+ m\.$/);

  // A signed-out visitor: hotspots on the item page, a click opens the text; the measuring tool uses the scale.
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  const visitorErrors: string[] = [];
  visitor.on("console", (m) => m.type() === "error" && visitorErrors.push(m.text()));
  await visitor.goto(`/item/${itemId}`);
  const visitorViewer = await viewerReady(visitor);
  await expect(visitor.getByRole("button", { name: /^Annotation \d: / })).toHaveText(["1", "2"]);
  await visitor.getByRole("button", { name: "Annotation 2: Ear" }).click();
  await expect(visitor.getByTestId("annotation-card").getByRole("heading")).toHaveText("2. Ear");
  await expect(visitor.getByTestId("annotation-card")).toContainText("Soft and pointy");
  const axe = await new AxeBuilder({ page: visitor }).include(".item-viewer-frame").analyze();
  expect(axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
  await visitor.getByRole("button", { name: "Close annotation" }).click();
  await measureTwoPoints(visitor, visitorViewer);
  // Other points from another view: some length, in metres, through the owner's scale (no "scale not set" note).
  await expect(visitor.getByTestId("measure-result")).toHaveText(/^Distance: [\d.]+ m$/);
  await visitorContext.close();
  expect(visitorErrors).toEqual([]);
  expect(consoleErrors).toEqual([]);
});

test("hotspots are placed by clicking a gaussian splat too", async ({ page }) => {
  await registerAndSignIn(page, { name: "Splat Sam" });
  const itemId = await uploadThroughDialog(page, path.join(DATA, "splats/guitar.ply"));
  await page.goto(`/item/${itemId}/edit`);
  const viewer = await viewerReady(page);
  const editor = page.getByTestId("annotation-editor");
  await editor.getByRole("button", { name: "Add annotation" }).click();
  await clickModel(page, viewer);
  await expect(editor.getByTestId("annotation-row")).toHaveText(["1. Annotation 1"]);
  const marker = page.getByRole("button", { name: "Annotation 1: Annotation 1" });
  await expect(marker).toBeVisible();
  // The marker sits where the splat was clicked: the middle of the viewer.
  expect(await offCentre(viewer, marker)).toBeLessThan(6);

  // Clicking empty space places nothing.
  const box = (await viewer.boundingBox())!;
  await editor.getByRole("button", { name: "Add annotation" }).click();
  await page.mouse.click(box.x + 8, box.y + 8);
  // A hit would have ended placing at once (the pick is synchronous); it is still waiting for one.
  await expect(editor.getByText("Click the model where the annotation goes.")).toBeVisible();
  await editor.getByRole("button", { name: "Cancel" }).click();
  await expect(editor.getByTestId("annotation-row")).toHaveCount(1);
});
