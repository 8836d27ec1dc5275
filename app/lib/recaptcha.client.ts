/** Loads Google's reCAPTCHA script once and runs v3 or renders the v2 checkbox (SPEC §7 captcha provider). */
interface Grecaptcha {
  ready(callback: () => void): void;
  execute(siteKey: string, options: { action: string }): Promise<string>;
  render(container: HTMLElement, options: { sitekey: string; callback: (token: string) => void; "expired-callback"?: () => void }): number;
  reset(widgetId?: number): void;
}

declare global {
  interface Window {
    grecaptcha?: Grecaptcha;
  }
}

let loading: Promise<Grecaptcha> | null = null;

export function loadRecaptcha(v3SiteKey: string): Promise<Grecaptcha> {
  if (!loading) {
    loading = new Promise<Grecaptcha>((resolve, reject) => {
      const script = document.createElement("script");
      script.src = `https://www.google.com/recaptcha/api.js?render=${encodeURIComponent(v3SiteKey)}`;
      script.async = true;
      script.onload = () => {
        const g = window.grecaptcha;
        if (!g) return reject(new Error("reCAPTCHA did not start"));
        g.ready(() => resolve(g));
      };
      script.onerror = () => {
        loading = null;
        reject(new Error("reCAPTCHA could not be loaded"));
      };
      document.head.appendChild(script);
    });
  }
  return loading;
}

/** A v3 token for the action, or null when reCAPTCHA cannot run (the server then asks for v2 or refuses). */
export async function recaptchaV3Token(v3SiteKey: string, action: string): Promise<string | null> {
  try {
    const g = await loadRecaptcha(v3SiteKey);
    return await g.execute(v3SiteKey, { action });
  } catch {
    return null;
  }
}
