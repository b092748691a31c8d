import type { BrowserContext, Dialog, Page } from '@playwright/test';
import type { ContextPages } from './page-tracker';

export interface GuardOptions {
  isAllowedUrl(url: string): boolean;
  dialogPolicy: 'accept' | 'dismiss';
  tracker: ContextPages;
}

/**
 * Context-wide safety nets that do not depend on the agent asking nicely: navigations (links, redirects,
 * window.open, forms, sub-frames) to hosts outside allowed_domains are aborted, and JavaScript dialogs are
 * answered by policy so no page can hang a sample.
 */
export async function installGuards(context: BrowserContext, options: GuardOptions): Promise<void> {
  await context.route('**/*', async route => {
    const request = route.request();
    const url = request.url();
    if (request.isNavigationRequest() && !options.isAllowedUrl(url)) {
      options.tracker.announce(`Blocked navigation to ${describeUrl(url)} (outside the task's allowed domains)`);
      await route.abort('blockedbyclient');
      return;
    }
    await route.fallback();
  });
  const watch = (page: Page) => page.on('dialog', dialog => void answerDialog(dialog, options));
  context.pages().forEach(watch);
  context.on('page', watch);
}

async function answerDialog(dialog: Dialog, options: GuardOptions): Promise<void> {
  const accept = options.dialogPolicy === 'accept' || dialog.type() === 'beforeunload';
  options.tracker.announce(`A ${dialog.type()} dialog said ${JSON.stringify(dialog.message().slice(0, 200))}; it was ${accept ? 'accepted' : 'dismissed'}`);
  try {
    if (accept) await dialog.accept();
    else await dialog.dismiss();
  } catch {
    // The page may have closed the dialog itself or navigated away.
  }
}

function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.host : `${parsed.protocol} URL`;
  } catch {
    return 'an invalid URL';
  }
}
