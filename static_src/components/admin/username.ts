/**
 * The username an admin-created account gets (spec section 5): lowercase, spaces become dots,
 * only a-z 0-9 . _ - kept, at most 30 characters. The server makes it unique when taken.
 */
export const USERNAME_MAX = 30;

export function deriveUsername(firstName: string, lastName: string): string {
  let base = `${firstName.trim()} ${lastName.trim()}`.trim().toLowerCase();
  base = base.replace(/\s+/g, ".").replace(/[^a-z0-9._-]/g, "");
  base = base.replace(/\.{2,}/g, ".").replace(/^\.+|\.+$/g, "");
  return base.slice(0, USERNAME_MAX).replace(/\.+$/, "");
}
