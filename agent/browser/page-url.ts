/** The page's address; `whenClosed` for a page that is gone (the loop compares addresses, the view prints one). */
export function safeUrl(page: { url(): string }, whenClosed = ''): string {
  try {
    return page.url();
  } catch {
    return whenClosed;
  }
}

/** The address without its fragment, as the browser requests it (with its own escaping); text that is not a URL as is. */
export function withoutFragment(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.hash = '';
    return parsed.href;
  } catch {
    return url;
  }
}
