// Dashboard on the real server: the request log of API calls with paging, and named API keys shown once, listed and
// revoked.
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { NAMED_API_KEYS } from '../../lib/product-rules';
import NamedKeys from './NamedKeys';
import RequestsTab from './RequestsTab';
import { postData, signedInPageEachTest } from '../shared/page.fixtures';

const page = signedInPageEachTest(500);

const post = (path: string, body: unknown, headers?: Record<string, string>) => postData(page, path, body, headers);
describe('RequestsTab', () => {
  it('lists API calls with tool, status, credits, task id and key, and pages through them', async () => {
    const api = (path: string, body: unknown) =>
      post(`/api${path}`, body, { authorization: `Bearer ${page.user.apiKey}` });
    const { taskId } = await api('/async/do_tts_common', { text: 'From the API', audioId: 'en-us-male-1' });
    for (let i = 0; i < 20; i++) await api('/remaining_credits', {});
    await new Promise((r) => setTimeout(r, 30));
    render(<RequestsTab />);
    const table = await screen.findByTestId('requests-table');
    expect(within(table).getAllByRole('row')).toHaveLength(21);
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(screen.getByText('Page 2 of 2')).toBeTruthy());
    const row = within(screen.getByTestId('requests-table')).getAllByRole('row')[1]!;
    expect(row.textContent).toContain('async/do_tts_common');
    expect(row.textContent).toContain(taskId);
    expect(row.textContent).toContain('Default key');
    expect(page.net.bodiesTo('/apply/requests')).toEqual([
      { page: 1, pageSize: 20 },
      { page: 2, pageSize: 20 },
    ]);
  });
});

describe('NamedKeys', () => {
  it('creates a named key shown once, lists it with its hint, and revokes it after confirmation', async () => {
    render(<NamedKeys />);
    const list = await screen.findByTestId('key-list');
    expect(within(list).getByText(NAMED_API_KEYS.defaultName)).toBeTruthy();
    expect(within(list).queryByRole('button', { name: /^Revoke/ })).toBeNull();

    fireEvent.change(screen.getByLabelText('New key name'), { target: { value: 'Staging' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create key' }));
    const shown = (await screen.findByTestId('new-key')).textContent!;
    expect(shown).toMatch(/^sk-/);
    expect((await post('/api/remaining_credits', {}, { authorization: `Bearer ${shown}` })).remainingCredits).toBe(500);
    expect(within(list).getByText(`${shown.slice(0, 7)}…${shown.slice(-4)}`)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByTestId('new-key')).toBeNull();

    // A second key is listed where the server lists it (after the default key, newest first), and its box is brought
    // into view.
    const scrolled = vi.spyOn(Element.prototype, 'scrollIntoView').mockImplementation(() => undefined);
    fireEvent.change(screen.getByLabelText('New key name'), { target: { value: 'Production' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create key' }));
    await screen.findByTestId('new-key');
    // The box scrolls in from an effect after it renders, which may come a tick after the box is found.
    await waitFor(() => expect(scrolled).toHaveBeenCalled());
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.querySelector('strong')?.textContent),
    ).toEqual([NAMED_API_KEYS.defaultName, 'Production', 'Staging']);
    scrolled.mockRestore();
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));

    fireEvent.click(within(list).getByRole('button', { name: 'Revoke Staging' }));
    fireEvent.click(within(list).getByRole('button', { name: 'Yes, revoke' }));
    await waitFor(() => expect(within(list).queryByText('Staging')).toBeNull());
    expect(await post('/api/remaining_credits', {}, { authorization: `Bearer ${shown}` })).toBeNull();
  });
});
