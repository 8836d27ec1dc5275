import { Password } from "primereact/password";
import { MIN_PASSWORD_LENGTH, passwordStrength, type PasswordStrength } from "~/auth/password-rule";

const LEVEL: Record<PasswordStrength, number> = { "too short": 0, weak: 1, fair: 2, good: 3, strong: 4 };

/**
 * A new password (register, reset) with the rule stated and a strength hint under it (issue 35 item 7;
 * app/auth/password-rule.ts). The hint is polite live text, so a screen reader hears it change.
 */
export function NewPasswordField({
  inputId,
  label,
  value,
  onChange,
  account,
}: {
  inputId: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  account?: { email?: string; name?: string };
}) {
  const graded = value ? passwordStrength(value, account) : null;
  const hintId = `${inputId}-hint`;
  return (
    <>
      <label htmlFor={inputId}>{label}</label>
      <Password
        inputId={inputId}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        feedback={false}
        toggleMask
        required
        autoComplete="new-password"
        aria-describedby={hintId}
      />
      <div className="password-strength" data-strength={graded?.strength ?? "empty"} data-testid={`${inputId}-strength`}>
        <div className="password-strength-bar" aria-hidden="true">
          {[1, 2, 3, 4].map((step) => (
            <span key={step} className={graded && LEVEL[graded.strength] >= step ? "on" : undefined} />
          ))}
        </div>
        <p id={hintId} aria-live="polite">
          {graded ? (
            <>
              <strong>{graded.strength === "too short" ? "Too short" : `Strength: ${graded.strength}`}.</strong> {graded.hint}
            </>
          ) : (
            `At least ${MIN_PASSWORD_LENGTH} characters.`
          )}
        </p>
      </div>
    </>
  );
}
