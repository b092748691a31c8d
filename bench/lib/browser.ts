import { chromium, type Browser } from '@playwright/test';
import { fallbackExecutable, CHROMIUM_ARGS } from '../../agent/browser/chromium';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: fallbackExecutable(), args: CHROMIUM_ARGS });
}

export const CONTEXT_OPTIONS = { viewport: { width: 1280, height: 900 }, colorScheme: 'light' as const, acceptDownloads: true };
