import { test, expect } from '@playwright/test';
import { classifyError } from '../../../agent/actions/core/errors';

test.describe('error classification', () => {
  const infra = [
    'page.goto: net::ERR_NAME_NOT_RESOLVED at http://nowhere.example/',
    'page.goto: net::ERR_CONNECTION_REFUSED at http://127.0.0.1:4999/',
    'page.goto: net::ERR_CONNECTION_RESET at http://127.0.0.1:4102/',
    'page.goto: net::ERR_CERT_AUTHORITY_INVALID at https://self-signed.example/',
    'page.goto: Timeout 30000ms exceeded.\nCall log:\n  - navigating to "http://127.0.0.1:4102/", waiting until "domcontentloaded"',
    'locator.click: Target page, context or browser has been closed',
    'page.evaluate: Target crashed',
    'getaddrinfo ENOTFOUND api.example.com',
  ];
  const logic = [
    'locator.click: Timeout 8000ms exceeded.\nCall log:\n  - waiting for getByText(\'Save\')\n  - navigating to "http://127.0.0.1:4102/x" timed out',
    'No element matches text "Save" — check the page state for the exact text, or scroll to reveal it',
    'page.goto: net::ERR_BLOCKED_BY_CLIENT at http://127.0.0.1:4102/go-away',
    'page.goto: net::ERR_ABORTED at http://127.0.0.1:4102/download/report.pdf',
    'Error: Unknown key: "NoSuchKey"',
  ];

  for (const message of infra) {
    test(`infra: ${message.split('\n')[0]}`, () => {
      expect(classifyError(new Error(message)).infra).toBe(true);
    });
  }
  for (const message of logic) {
    test(`logic: ${message.split('\n')[0]}`, () => {
      expect(classifyError(new Error(message)).infra).toBe(false);
    });
  }

  test('messages are short and say what to do next', () => {
    expect(classifyError(new Error('page.goto: net::ERR_BLOCKED_BY_CLIENT at http://x/')).message).toContain("outside the task's allowed domains");
    expect(classifyError(new Error('locator.fill: Frame was detached')).message).toContain('take a fresh look');
    const covered = classifyError(
      new Error(
        'locator.click: Timeout 8000ms exceeded.\nCall log:\n  - <div class="cookie-banner">…</div> intercepts pointer events\n  - retrying click action',
      ),
    );
    expect(covered.message).toBe(
      'locator.click: Timeout 8000ms exceeded. — another element (<div class="cookie-banner">) is covering it — close the dialog or overlay first',
    );
    const hidden = classifyError(new Error('locator.click: Timeout 8000ms exceeded.\nCall log:\n  - element is not visible\n  - retrying'));
    expect(hidden.message).toContain('it is not visible — open the menu, tab or section that holds it');
  });
});
