import { json, redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { openShareLink } from "~/domain/share-links.server";

// /s/{slug}: a share link (POST /v1/item/{id}/share). Opens the model page while the link is active and the
// model visible by link; otherwise says so plainly (404).
export async function loader({ params }: LoaderFunctionArgs) {
  const itemId = await openShareLink({ slug: params.slug ?? "" });
  if (itemId) return redirect(`/item/${itemId}`);
  return json(null, { status: 404 });
}

export const meta: MetaFunction = () => [{ title: "Link not available — Scanroom" }, { name: "robots", content: "noindex" }];

export default function ShareLinkGone() {
  return (
    <section className="page error-page">
      <h1>This link is not available</h1>
      <p>Its owner turned it off, or the model is no longer shared.</p>
      <Link to="/">Explore models</Link>
    </section>
  );
}
