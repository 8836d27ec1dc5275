import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";

export const meta: MetaFunction = () => [{ title: "Sorry to see you go — Scanroom" }];

export default function SorryToSeeYouGo() {
  return (
    <section className="page farewell">
      <h1>Sorry to see you go</h1>
      <p>Your account, your models and their files have been deleted. Thank you for scanning with us.</p>
      <p>
        If something did not work for you, we would like to hear about it: <Link to="/contact">tell us what we could do better</Link>. You
        are always welcome back — <Link to="/">explore</Link> what others are making.
      </p>
    </section>
  );
}
