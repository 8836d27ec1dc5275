/**
 * Where a visitor can share a model (issue 35 item 2): the networks' own share pages, each given the model's
 * link and title in its query, and e-mail. Pure, so the links are tested without a browser.
 */
export interface ShareTarget {
  id: "x" | "facebook" | "reddit" | "email";
  label: string;
  icon: string;
  href: string;
}

export function shareTargets(url: string, title: string): ShareTarget[] {
  const u = encodeURIComponent(url);
  const t = encodeURIComponent(title);
  return [
    { id: "x", label: "X", icon: "pi pi-twitter", href: `https://x.com/intent/post?url=${u}&text=${t}` },
    { id: "facebook", label: "Facebook", icon: "pi pi-facebook", href: `https://www.facebook.com/sharer/sharer.php?u=${u}` },
    { id: "reddit", label: "Reddit", icon: "pi pi-reddit", href: `https://www.reddit.com/submit?url=${u}&title=${t}` },
    { id: "email", label: "E-mail", icon: "pi pi-envelope", href: `mailto:?subject=${t}&body=${encodeURIComponent(`${title}\n${url}`)}` },
  ];
}
