import path from "node:path";
import { expect, registerAndSignIn, test } from "./fixtures";
import { SHARED_DATA } from "../setup/shared-data";

// Issue 17 item 2: the e2e server's APP_URL says http://localhost:PORT; the page is opened at
// 127.0.0.1 (as from a LAN address or behind a proxy). The upload must go to the page's own origin
// and succeed, without a CORS error. Its share link, embed code and share links must open there too (issue 35
// item 8, docs/decisions/047).
const PORT = Number(process.env.E2E_PORT ?? 3100);
test.use({ baseURL: `http://127.0.0.1:${PORT}` });

test("a model uploads with the site opened at 127.0.0.1 while APP_URL says localhost, and its links open there", async ({ page, consoleErrors }) => {
  await registerAndSignIn(page);
  const puts: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "PUT") puts.push(request.url());
  });
  await page.getByTestId("new-model").click();
  const dialog = page.getByTestId("upload-dialog");
  await page.getByTestId("upload-input").setInputFiles(path.join(SHARED_DATA, "models/SpecularTest.glb"));
  await dialog.getByRole("button", { name: "Upload" }).click();
  await page.waitForURL(/\/item\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1, name: "SpecularTest" })).toBeVisible();
  expect(puts).toHaveLength(1);
  expect(new URL(puts[0]).origin).toBe(`http://127.0.0.1:${PORT}`);

  const origin = `http://127.0.0.1:${PORT}`;
  const itemId = new URL(page.url()).pathname.split("/").pop()!;
  await page.locator("#item-visibility").selectOption("unlisted");
  await expect(page.getByTestId("share-link")).toHaveValue(`${origin}/item/${itemId}`);
  await expect(page.getByTestId("embed-code")).toHaveValue(new RegExp(`<iframe src="${origin}/embed/${itemId}"`));
  await page.getByRole("button", { name: "Share / Embed" }).click();
  const share = page.getByRole("dialog", { name: "Share / Embed" });
  await expect(share.getByTestId("share-page-link")).toHaveValue(`${origin}/item/${itemId}`);
  await share.getByLabel("Label for the new link (optional)").fill("LAN");
  await share.getByRole("button", { name: "Create link" }).click();
  const linkField = share.getByTestId("share-links").getByLabel("LAN", { exact: true });
  await expect(linkField).toHaveValue(new RegExp(`^${origin}/s/[A-Za-z0-9]{10}$`));
  // The link works where it was handed out: it opens the model at this origin.
  const link = await linkField.inputValue();
  const visitor = await page.context().browser()!.newPage();
  await visitor.goto(link);
  await expect(visitor).toHaveURL(new RegExp(`^${origin}/`));
  await expect(visitor.getByRole("heading", { level: 1, name: "SpecularTest" })).toBeVisible();
  await visitor.close();
  expect(consoleErrors).toEqual([]);
});
