import { expect, test } from '@playwright/test';
import { fillPlaceholders, malformedPlaceholders, placeholdersIn, secretNamesIn } from '../../../agent/secrets/placeholders';
import { resolveForSite, scopeRefusal } from '../../../agent/secrets/scope';
import { TaskSpecSchema } from '../../../agent/task/schema';
import { AuthProfileSchema } from '../../../agent/task/auth-profile';
import { taskSecretScopes } from '../../../agent/task/secret-scope';
import { taskJson } from '../helpers/temp';

test('one placeholder pattern: any letters, digits and _ (lower case too), secret and env alike; what only looks like one is named', () => {
  expect(placeholdersIn('{{secret:LEDGER_PIN}} {{ secret:ledger_pin }} {{env:WIKI_USER}}')).toEqual([
    { kind: 'secret', name: 'LEDGER_PIN', text: '{{secret:LEDGER_PIN}}' },
    { kind: 'secret', name: 'ledger_pin', text: '{{ secret:ledger_pin }}' },
    { kind: 'env', name: 'WIKI_USER', text: '{{env:WIKI_USER}}' },
  ]);
  expect(secretNamesIn('{{secret:a}} {{secret:a}} {{env:b}}')).toEqual(['a']);
  expect(malformedPlaceholders('{{secret:ledger-pin}} {{ env : X }} {{secret:OK}} {{column}}')).toEqual(['{{secret:ledger-pin}}', '{{ env : X }}']);
});

test('filling in: an unset or malformed placeholder is an error naming it and its variable, never typed literally', () => {
  const values = { secrets: { ledger_pin: '4711' }, settings: { WIKI_USER: 'auditor' } };
  expect(fillPlaceholders('{{secret:ledger_pin}} / {{env:WIKI_USER}}', values)).toBe('4711 / auditor');
  expect(() => fillPlaceholders('{{secret:OTHER}}', values)).toThrow('{{secret:OTHER}} is not set: add SECRET_OTHER=… to .env');
  expect(() => fillPlaceholders('{{env:HOME}}', values)).toThrow('{{env:HOME}} is not set: add ENV_HOME=… to .env');
  expect(() => fillPlaceholders('{{secret:ledger-pin}}', values)).toThrow('{{secret:ledger-pin}} is not a placeholder bwa knows');
});

test('a malformed placeholder in a task spec or a sign-in profile is refused when it loads, naming where', () => {
  const spec = TaskSpecSchema.safeParse(taskJson({ recipe: [{ action: 'type', target: { label: 'PIN' }, text: '{{secret:ledger-pin}}' }] }));
  expect(spec.success).toBe(false);
  expect(spec.error!.issues.map(i => [i.path.join('.'), i.message])).toEqual([
    [
      'recipe.0.text',
      '{{secret:ledger-pin}} is not a placeholder bwa knows: write {{secret:NAME}} or {{env:NAME}}, NAME being letters, digits and _',
    ],
  ]);
  const profile = AuthProfileSchema.safeParse({
    start_url: 'https://shop.test/login',
    steps: [{ action: 'type', target: { label: 'User' }, text: '{{env:shop user}}' }],
    check: { url: '/account' },
  });
  expect(profile.success).toBe(false);
});

test("each secret's sites: the profile's for its steps' secrets, the start page's host for the task's own, secret_sites outright; nothing else", () => {
  const spec = TaskSpecSchema.parse(
    taskJson({
      start_url: 'https://app.example.com/ledger/{{username}}',
      goal: 'Type {{secret:LEDGER_PIN}} when asked, and {{secret:TOTP}}.',
      secret_sites: { TOTP: ['sso.example.com'] },
    }),
  );
  const profile = AuthProfileSchema.parse({
    start_url: 'https://login.example.com/',
    steps: [{ action: 'type', target: { label: 'Password' }, text: '{{secret:PASSWORD}}' }],
    check: { url: '/home' },
  });
  const scopes = taskSecretScopes(spec, 'https://app.example.com/ledger/ada', { name: 'shop', profile });
  expect(scopes).toEqual({
    PASSWORD: { sites: ['login.example.com'], from: 'the sites of auth profile "shop" (its start page)' },
    LEDGER_PIN: { sites: ['app.example.com'], from: "the task's start page" },
    TOTP: { sites: ['sso.example.com'], from: "the task's secret_sites" },
  });
  expect(scopeRefusal('{{secret:PASSWORD}}', 'https://login.example.com/form', scopes)).toBeUndefined();
  expect(scopeRefusal('{{secret:PASSWORD}}', 'https://app.example.com/search', scopes)).toBe(
    'refused to type {{secret:PASSWORD}} into a field on app.example.com: it may be typed only on login.example.com (the sites of auth profile "shop" (its start page))',
  );
  expect(scopeRefusal('{{secret:LEDGER_PIN}}', 'about:blank', scopes)).toContain('into a field on a page without an address of its own');
  expect(scopeRefusal('{{secret:ADMIN}}', 'https://app.example.com/', scopes)).toContain('this task does not use it');
  expect(() => resolveForSite('{{secret:TOTP}}', 'https://evil.example.net/', { secrets: { TOTP: '123456' }, settings: {} }, scopes)).toThrow(
    'refused to type {{secret:TOTP}} into a field on evil.example.net',
  );
});
