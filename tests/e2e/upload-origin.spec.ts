import path from "node:path";
import { expect, registerAndSignIn, test } from "./fixtures";
import { SHARED_DATA } from "../setup/shared-data";

// Issue 17 item 2: the e2e server's APP_URL says http://localhost:PORT; the page is opened at
// 127.0.0.1 (as from a LAN address or behind a proxy). The upload must go to the page's own origin
// and succeed, without a CORS error.
const PORT = Number(process.env.E2E_PORT ?? 3100);
test.use({ baseURL: `http://127.0.0.1:${PORT}` });

test("a model uploads with the site opened at 127.0.0.1 while APP_URL says localhost", async ({ page, consoleErrors }) => {
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
  expect(consoleErrors).toEqual([]);
});
