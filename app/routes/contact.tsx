import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Button } from "primereact/button";
import { Message } from "primereact/message";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { useAuth } from "~/auth/auth-provider";
import { contactBodySchema } from "~/domain/schemas";
import { ApiError } from "~/lib/api-client";
import { CAPTCHA_ACTION, captchaConfig } from "~/lib/captcha.server";
import { loadRecaptcha, recaptchaV3Token } from "~/lib/recaptcha.client";

export const meta: MetaFunction = () => [{ title: "Contact us — Scanroom" }];

export function loader(_args: LoaderFunctionArgs) {
  return json({ captcha: captchaConfig(), captchaAction: CAPTCHA_ACTION });
}

type Fields = { name: string; email: string; subject: string; message: string };
type FieldErrors = Partial<Record<keyof Fields, string>>;

const LABELS: Record<keyof Fields, string> = { name: "Name", email: "Email", subject: "Subject", message: "Message" };

export default function Contact() {
  const { captcha, captchaAction } = useLoaderData<typeof loader>();
  const { api, user } = useAuth();
  const [fields, setFields] = useState<Fields>({ name: user?.displayName ?? "", email: user?.email ?? "", subject: "", message: "" });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);
  const [v2Token, setV2Token] = useState<string | null>(null);
  const [needV2, setNeedV2] = useState(false);
  const v2Container = useRef<HTMLDivElement>(null);

  // The v2 checkbox appears only when the server asks for it (v3 judged the request as automated).
  useEffect(() => {
    if (!needV2 || !captcha?.v2SiteKey || !v2Container.current || v2Container.current.childElementCount > 0) return;
    loadRecaptcha(captcha.v3SiteKey)
      .then((g) => g.render(v2Container.current!, { sitekey: captcha.v2SiteKey!, callback: setV2Token, "expired-callback": () => setV2Token(null) }))
      .catch(() => setFormError("The captcha could not be loaded. Check your connection and try again."));
  }, [needV2, captcha]);

  const set = (key: keyof Fields) => (event: { target: { value: string } }) => setFields((f) => ({ ...f, [key]: event.target.value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const parsed = contactBodySchema.safeParse({ ...fields, subject: fields.subject.trim() || undefined });
    if (!parsed.success) {
      const next: FieldErrors = {};
      for (const issue of parsed.error.issues) {
        const key = issue.path[0] as keyof Fields;
        next[key] ??= `${LABELS[key]} ${issue.message}.`;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      let captchaFields = {};
      if (captcha && needV2) captchaFields = { captcha_token: v2Token ?? undefined, captcha_version: "v2" };
      else if (captcha) captchaFields = { captcha_token: (await recaptchaV3Token(captcha.v3SiteKey, captchaAction)) ?? undefined, captcha_version: "v3" };
      await api("/contact", { method: "POST", body: { ...parsed.data, ...captchaFields } });
      setSent(true);
    } catch (error) {
      if (error instanceof ApiError && error.error === "captcha_required") setNeedV2(true);
      setFormError(error instanceof Error ? error.message : "Your message could not be sent.");
    } finally {
      setBusy(false);
    }
  };

  if (sent) {
    return (
      <section className="page contact">
        <h1>Contact us</h1>
        <Message severity="success" text="Thank you! Your message was sent. We usually answer within two working days." data-testid="contact-sent" />
      </section>
    );
  }

  const field = (key: keyof Fields, input: JSX.Element) => (
    <div className="contact-field">
      <label htmlFor={`contact-${key}`}>
        {LABELS[key]}
        {key === "subject" ? " (optional)" : ""}
      </label>
      {input}
      {errors[key] ? (
        <small id={`contact-${key}-error`} className="contact-error">
          {errors[key]}
        </small>
      ) : null}
    </div>
  );
  const common = (key: keyof Fields) => ({
    id: `contact-${key}`,
    name: key,
    className: errors[key] ? "p-inputtext p-invalid" : "p-inputtext",
    value: fields[key],
    onChange: set(key),
    "aria-invalid": errors[key] ? true : undefined,
    "aria-describedby": errors[key] ? `contact-${key}-error` : undefined,
  });

  return (
    <section className="page contact">
      <h1>Contact us</h1>
      <p className="explore-lead">Questions about scans, plans, the Shopify app or an old project? Write to us and we will get back to you by email.</p>
      <form className="contact-form" onSubmit={submit} noValidate aria-label="Contact form">
        {field("name", <input {...common("name")} autoComplete="name" maxLength={100} />)}
        {field("email", <input {...common("email")} type="email" autoComplete="email" maxLength={254} />)}
        {field("subject", <input {...common("subject")} maxLength={200} />)}
        {field("message", <textarea {...common("message")} rows={7} maxLength={5000} />)}
        {needV2 ? <div ref={v2Container} className="contact-captcha" /> : null}
        {formError ? <Message severity="error" text={formError} /> : null}
        <Button type="submit" label="Send message" icon="pi pi-send" loading={busy} disabled={needV2 && !v2Token} />
        {captcha ? (
          <p className="contact-captcha-note">
            This form is protected by reCAPTCHA; Google&apos;s{" "}
            <a href="https://policies.google.com/privacy" target="_blank" rel="noopener noreferrer">Privacy Policy</a> and{" "}
            <a href="https://policies.google.com/terms" target="_blank" rel="noopener noreferrer">Terms of Service</a> apply.
          </p>
        ) : null}
      </form>
    </section>
  );
}
