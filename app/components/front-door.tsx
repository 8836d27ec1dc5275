import { Link } from "@remix-run/react";
import type { ItemCardData } from "./item-card";

const STEPS = [
  { icon: "pi pi-video", title: "Capture", text: "Walk around an object with your phone: a short video or a set of photos." },
  { icon: "pi pi-box", title: "Get a 3D model", text: "We reconstruct a photoreal gaussian splat and a textured mesh from it — no app, no GPU of your own." },
  { icon: "pi pi-shopping-bag", title: "Embed and sell", text: "Put it on any website with one line of code, or on your Shopify product pages with our app." },
];

/**
 * What signed-out visitors see first on /: what Scanroom does in three steps, a few public models (those an
 * admin featured first, then the most viewed), and one call to action. Explore follows below it.
 */
export function FrontDoor({ featured }: { featured: ItemCardData[] }) {
  return (
    <section className="front-door" aria-labelledby="front-door-title" data-testid="front-door">
      <div className="front-door-copy">
        <h1 id="front-door-title">Turn a video or photos into a 3D model</h1>
        <p className="front-door-lead">Capture something real, get a model you can spin, measure, embed and sell.</p>
        <ol className="front-door-steps">
          {STEPS.map((step) => (
            <li key={step.title}>
              <i className={step.icon} aria-hidden="true" />
              <strong>{step.title}</strong>
              <span>{step.text}</span>
            </li>
          ))}
        </ol>
        <Link to={`/auth?redirect=${encodeURIComponent("/dashboard")}`} className="p-button front-door-cta" data-testid="front-door-cta">
          Create your first 3D model — free
        </Link>
      </div>
      {featured.length > 0 ? (
        <ul className="front-door-models" aria-label="Featured models">
          {featured.map((item) => (
            <li key={item.id} data-testid="featured-model">
              <Link to={`/item/${item.id}`}>
                {item.thumbnail_url ? (
                  <img src={item.thumbnail_url} alt="" loading="lazy" />
                ) : (
                  <span className="front-door-placeholder" aria-hidden="true">
                    <i className="pi pi-box" />
                  </span>
                )}
                <span className="front-door-model-name">{item.name}</span>
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
