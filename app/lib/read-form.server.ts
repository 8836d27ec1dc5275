/** A form POST's fields; a body that is not a form reads as no fields (the caller's zod schema then refuses it). */
export async function readForm(request: Request): Promise<Record<string, unknown>> {
  try {
    return Object.fromEntries(await request.formData());
  } catch {
    return {};
  }
}
