/**
 * A page kept for use without signal names its account (meta sibol-account). On a shared phone,
 * when the browser's sibol_account cookie no longer says so (the session ended, or another
 * account signed in), the copy is hidden and the browser goes to the sign-in page. The service
 * worker refuses such a copy already; this covers a browser whose worker cannot read cookies.
 */
export function leaveIfAnotherAccount(): void {
  const owner = document.querySelector<HTMLMetaElement>('meta[name="sibol-account"]')?.content;
  if (owner && owner !== /(?:^|;\s*)sibol_account=([^;]*)/.exec(document.cookie)?.[1]) {
    document.documentElement.hidden = true;
    location.replace("/login");
  }
}
