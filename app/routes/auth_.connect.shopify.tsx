import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Button } from "primereact/button";
import { getPageUser, requirePageUser } from "~/auth/require-user.server";
import { BarePage } from "~/components/bare-page";
import { isAppError } from "~/lib/errors";
import { connectShop, describeConnectToken } from "~/domain/shop-connect.server";
import type { RouteHandle } from "~/lib/route-handle";

// /auth/connect/shopify?token=… (no layout): the merchant signs in on the site (the Shopify admin iframe
// cannot) and confirms linking the store to this account. The token is issued by the embedded admin; it is
// signed, bound to the store, expires in 15 minutes and works once (app/domain/shop-connect.server.ts).

export const handle: RouteHandle = { layout: false };
export const meta: MetaFunction = () => [{ title: "Connect your Shopify store — Scanroom" }, { name: "robots", content: "noindex" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const token = url.searchParams.get("token")?.trim() ?? "";
  if (!token) return json({ state: "no-token" as const });
  const user = await getPageUser(request);
  try {
    const link = await describeConnectToken({ token });
    return json({
      state: "ready" as const,
      token,
      shopDomain: link.shopDomain,
      user: user ? { label: user.email ?? user.displayName ?? "your account" } : null,
      signInUrl: `/auth?redirect=${encodeURIComponent(url.pathname + url.search)}`,
      alreadyYours: Boolean(user && link.connectedUserId === user.id),
      connectedElsewhere: Boolean(link.connectedUserId && link.connectedUserId !== user?.id),
    });
  } catch (error) {
    if (!isAppError(error)) throw error;
    return json({ state: "refused" as const, message: error.message }, { status: error.status });
  }
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requirePageUser(request);
  const form = await request.formData();
  try {
    const { shopDomain } = await connectShop({
      token: String(form.get("token") ?? ""),
      shopDomain: String(form.get("shop") ?? ""),
      userId: user.id,
    });
    return redirect(`/shopify/dashboard?connected=${encodeURIComponent(shopDomain)}`);
  } catch (error) {
    if (!isAppError(error)) throw error;
    return json({ error: error.message }, { status: error.status });
  }
}

export default function ConnectShopify() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();

  return (
    <BarePage title="Connect your Shopify store">
      {data.state === "no-token" && (
        <p>
          Open the Scanroom app in your Shopify admin and choose <strong>Connect account</strong>: it brings you back here
          with a link for your store.
        </p>
      )}
      {data.state === "refused" && (
        <p role="alert" className="shop-connect-error" data-testid="connect-refused">
          {data.message}
        </p>
      )}
      {data.state === "ready" && (
        <>
          {result?.error && (
            <p role="alert" className="shop-connect-error" data-testid="connect-refused">
              {result.error}
            </p>
          )}
          <p>
            Store: <strong data-testid="connect-shop">{data.shopDomain}</strong>
          </p>
          {!data.user ? (
            <>
              <p>Sign in to Scanroom, or create an account, to show your 3D models on this store’s product pages.</p>
              <Link className="p-button" to={data.signInUrl}>
                Sign in or register
              </Link>
            </>
          ) : data.alreadyYours ? (
            <p className="bare-status">This store is already connected to your account ({data.user.label}).</p>
          ) : (
            <Form method="post">
              <input type="hidden" name="token" value={data.token} />
              <input type="hidden" name="shop" value={data.shopDomain} />
              <p>
                Connect it to your Scanroom account <strong>{data.user.label}</strong>? Your models can then be attached to
                its products, and your plan’s quotas apply to it.
                {data.connectedElsewhere ? " It is connected to another Scanroom account now; confirming moves it to yours." : ""}
              </p>
              <Button type="submit" label="Connect store" icon="pi pi-link" loading={navigation.state === "submitting"} />
            </Form>
          )}
        </>
      )}
      <ul className="bare-links">
        <li>
          <Link to="/shopify/dashboard">Your connected stores</Link>
        </li>
      </ul>
    </BarePage>
  );
}
