/**
 * The one password rule of the site's forms (issue 35 item 7): at least 10 characters, not the account's
 * e-mail address or its name, not a password from the lists attackers try first. Firebase itself only asks
 * for 6, so the register and reset forms check this before they call it.
 *
 * The strength hint is an estimate of how many guesses a password would take, in the manner of zxcvbn but
 * small: the characters' alphabet and length give the bits, and runs, repeats and keyboard/alphabet
 * sequences count as one character each.
 */
export const MIN_PASSWORD_LENGTH = 10;

/** Passwords (and their stems) tried first by anyone guessing; a password made of one of them is refused. */
const COMMON = [
  "password", "passw0rd", "123456", "1234567890", "qwerty", "qwertyuiop", "asdfghjkl", "letmein", "welcome", "iloveyou",
  "admin", "abc123", "monkey", "dragon", "football", "baseball", "sunshine", "princess", "starwars", "trustno1",
  "scanroom",
];

export type PasswordStrength = "too short" | "weak" | "fair" | "good" | "strong";

/** What is wrong with a password under the rule, in words for the form; null when it may be used. */
export function passwordProblem(password: string, account: { email?: string; name?: string } = {}): string | null {
  if ([...password].length < MIN_PASSWORD_LENGTH) return `Use at least ${MIN_PASSWORD_LENGTH} characters.`;
  const lower = password.toLowerCase();
  const email = account.email?.trim().toLowerCase();
  if (email && (lower === email || lower === email.split("@")[0])) return "Don't use your e-mail address as your password.";
  const name = account.name?.trim().toLowerCase().replace(/\s+/g, "");
  if (name && name.length >= 3 && lower.replace(/\s+/g, "") === name) return "Don't use your name as your password.";
  if (isCommon(lower)) return "This password is one of the first that attackers try. Choose another.";
  return null;
}

/** A common password with digits or symbols stuck on (Password2024!, qwerty123456). */
function isCommon(lower: string): boolean {
  const stem = lower.replace(/[^a-z]+$/, "").replace(/^[^a-z]+/, "");
  return COMMON.some((word) => lower === word || stem === word || /^\d+$/.test(lower));
}

/** Bits of guessing work, after collapsing runs, repeats and sequences to one character each. */
export function passwordBits(password: string): number {
  const chars = [...password];
  let pool = 0;
  if (/[a-z]/.test(password)) pool += 26;
  if (/[A-Z]/.test(password)) pool += 26;
  if (/\d/.test(password)) pool += 10;
  if (/[^a-zA-Z\d]/.test(password)) pool += 33;
  const codes = chars.map((c) => c.toLowerCase().codePointAt(0)!);
  const step = (i: number) => (i > 0 && i < codes.length ? codes[i] - codes[i - 1] : NaN);
  const keyboard = (i: number) => i > 0 && i < chars.length && isKeyboardStep(chars[i - 1], chars[i]);
  let effective = 0;
  for (let i = 0; i < chars.length; i++) {
    // A repeat ("aaa"), a member of a ±1 sequence ("abc", "321") or of a keyboard run ("qwer") adds little.
    const repeat = step(i) === 0;
    const sequence = Math.abs(step(i)) === 1 && (step(i - 1) === step(i) || step(i + 1) === step(i));
    const keyboardRun = keyboard(i) && (keyboard(i - 1) || keyboard(i + 1));
    effective += repeat || sequence || keyboardRun ? 0.25 : 1;
  }
  return Math.round(effective * Math.log2(Math.max(pool, 1)));
}

const KEYBOARD_ROWS = ["1234567890", "qwertyuiop", "asdfghjkl", "zxcvbnm"];

function isKeyboardStep(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b) return false;
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return KEYBOARD_ROWS.some((row) => {
    const i = row.indexOf(x);
    return i >= 0 && row[i + 1] === y;
  });
}

/** The strength shown under a new password, with what would make it stronger. */
export function passwordStrength(password: string, account: { email?: string; name?: string } = {}): { strength: PasswordStrength; hint: string } {
  const problem = passwordProblem(password, account);
  if ([...password].length < MIN_PASSWORD_LENGTH) return { strength: "too short", hint: problem! };
  if (problem) return { strength: "weak", hint: problem };
  const bits = passwordBits(password);
  if (bits < 40) return { strength: "weak", hint: "Make it longer, or mix in capitals, digits or symbols; avoid runs like abc or 1111." };
  if (bits < 56) return { strength: "fair", hint: "Good enough; a few more characters or another word would make it strong." };
  if (bits < 72) return { strength: "good", hint: "A good password." };
  return { strength: "strong", hint: "A strong password." };
}
