import AxeBuilder from "@axe-core/playwright";
import pg from "pg";
import { databaseUrl } from "../setup/config";
import { ensureTestMedia } from "../setup/media";
import { expect, registerAndSignIn, test } from "./fixtures";

// Issue 17 item 1: when the only scan workers report missing tools, the Upload dialog and the
// dashboard say plainly that scans are unavailable, and a photo set cannot be sent (models still can).
const E2E_DATABASE = `scanroom_e2e_${Number(process.env.E2E_PORT ?? 3100)}`;
const WORKER = "e2e-worker-without-colmap";

async function sql(text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: databaseUrl(E2E_DATABASE) });
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end();
  }
}

test.afterEach(async () => {
  await sql(`DELETE FROM "ScanWorker" WHERE id = $1`, [WORKER]);
});

test("with no worker able to scan, the Upload dialog and the dashboard say scans are unavailable", async ({ page }) => {
  const media = await ensureTestMedia();
  await sql(`INSERT INTO "ScanWorker" (id, hostname, "missingTools") VALUES ($1, 'elsewhere', ARRAY['colmap'])`, [WORKER]);
  await registerAndSignIn(page);

  await expect(page.getByTestId("scans-unavailable")).toContainText("Scans are unavailable on this server");
  await expect(page.getByTestId("scans-unavailable")).toContainText("colmap");
  // The warning is readable: its text meets WCAG AA contrast on its tint (PrimeReact's own warn colour did not).
  const contrast = await new AxeBuilder({ page }).include('[data-testid="scans-unavailable"]').withRules(["color-contrast"]).analyze();
  expect(contrast.violations.map((v) => v.nodes.map((n) => n.failureSummary))).toEqual([]);

  await page.getByTestId("new-model").click();
  const dialog = page.getByTestId("upload-dialog");
  await expect(dialog.getByTestId("scans-unavailable")).toContainText("Scans are unavailable on this server");
  await page.getByTestId("upload-input").setInputFiles(media.images.slice(0, 20));
  await expect(dialog.getByRole("button", { name: "Upload" })).toBeDisabled();
});
