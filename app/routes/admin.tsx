import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { NavLink, Outlet } from "@remix-run/react";
import { requirePageAdmin } from "~/auth/require-admin.server";
import adminCss from "~/styles/admin.css?url";

// The admin area (issue 9): announcements, categories, users, moderation and the audit log.
// Every page's own loader checks admin rights too (child loaders run in parallel with this one).
export const links: LinksFunction = () => [{ rel: "stylesheet", href: adminCss }];
export const meta: MetaFunction = () => [{ title: "Admin — Scanroom" }, { name: "robots", content: "noindex" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requirePageAdmin(request);
  return json(null);
}

const SECTIONS = [
  { to: "/admin", label: "Overview", end: true },
  { to: "/admin/announcements", label: "Announcements" },
  { to: "/admin/categories", label: "Categories" },
  { to: "/admin/users", label: "Users" },
  { to: "/admin/moderation", label: "Moderation" },
  { to: "/admin/audit", label: "Audit log" },
];

export default function AdminLayout() {
  return (
    <section className="page admin">
      <nav className="admin-nav" aria-label="Admin sections">
        {SECTIONS.map((s) => (
          <NavLink key={s.to} to={s.to} end={s.end} prefetch="intent">
            {s.label}
          </NavLink>
        ))}
      </nav>
      <Outlet />
    </section>
  );
}
