import { elementPathsOf } from '../../../agent/actions/targets/element-path';
import { expect, test } from './harness';

const PAGE = `
<main id="checks"><ul>
  <li>lint <a href="/lint">Details</a></li>
  <li>unit <a href="/unit">Details</a></li>
  <li>e2e <a href="/e2e">Details</a></li>
</ul></main>
<section id="r-48213"><p><a href="/people/ada">ada</a> approved</p><p><a href="/people/bo">bo</a> approved</p></section>`;

test('a ref is recorded with where its element sat: one of three same-named links by position under a unique id, a list of refs one path each (a generated id is no anchor), a target named by text records none', async ({
  harness,
  page,
}) => {
  await harness.open('element-paths', PAGE);
  const elements = [...(await harness.look()).values()];
  const refOf = (name: string, nth = 0) => elements.filter(e => e.role === 'link' && e.name === name)[nth]!.ref!;
  const hrefAt = async (path: string) => {
    await expect(page.locator(path)).toHaveCount(1);
    return page.locator(path).getAttribute('href');
  };

  const click = await elementPathsOf({ name: 'click', args: { target: refOf('Details', 1) } }, harness.env());
  expect(click?.target).toHaveLength(1);
  expect(click!.target![0]).toMatch(/^#checks > /);
  expect(await hrefAt(click!.target![0]!)).toBe('/unit');

  const list = await elementPathsOf(
    { name: 'extract', args: { field: 'approvers', target: `${refOf('ada')} ${refOf('bo')}`, all: true } },
    harness.env(),
  );
  expect(list?.target).toHaveLength(2);
  expect(list!.target!.join(' ')).not.toContain('48213');
  expect(await Promise.all(list!.target!.map(hrefAt))).toEqual(['/people/ada', '/people/bo']);

  expect(await elementPathsOf({ name: 'click', args: { target: 'Details' } }, harness.env())).toBeUndefined();
});
