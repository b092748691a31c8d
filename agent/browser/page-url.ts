/** The page's address; `whenClosed` for a page that is gone (the loop compares addresses, the view prints one). */
export function safeUrl(page: { url(): string }, whenClosed = ''): string {
  try {
    return page.url();
  } catch {
    return whenClosed;
  }
}
