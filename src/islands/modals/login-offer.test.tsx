// The login modal offers only the sign-in methods this server has configured (the offer answer), and an untouched email
// field says nothing when focus leaves it for another button. Against the real app in-process.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routeBrowserTo } from '../../../server/test-support/browser';
import { createTasksTestApp, type TasksTestApp } from '../../../server/test-support/tasks';
import { MESSAGES } from '../../lib/product-rules';
import { resetModals } from '../../lib/stores/modals';
import { $offer, forgetOffer } from '../../lib/stores/offer';
import LoginModal from './LoginModal';

const NO_OAUTH = { GOOGLE_CLIENT_ID: '', GOOGLE_CLIENT_SECRET: '', GITHUB_CLIENT_ID: '', GITHUB_CLIENT_SECRET: '' };
let t: TasksTestApp | undefined;

afterEach(async () => {
  cleanup();
  resetModals();
  forgetOffer();
  vi.unstubAllGlobals();
  await t?.close();
  t = undefined;
});

async function openOn(env: Record<string, string>) {
  t = await createTasksTestApp({ env });
  routeBrowserTo(t.app);
  render(<LoginModal />);
  await waitFor(() => expect($offer.get()).not.toBeNull());
}

describe('LoginModal sign-in methods', () => {
  it('offers neither Google nor GitHub when the server has no OAuth client, and no "or" before nothing', async () => {
    await openOn(NO_OAUTH);
    expect(screen.getByRole('button', { name: 'Continue' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Google' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'GitHub' })).toBeNull();
    expect(screen.queryByText('or')).toBeNull();
  });

  it('offers exactly the providers that are configured', async () => {
    await openOn({ ...NO_OAUTH, GITHUB_CLIENT_ID: 'github-client', GITHUB_CLIENT_SECRET: 'github-secret' });
    await waitFor(() => expect(screen.getByRole('button', { name: 'GitHub' })).toBeTruthy());
    expect(screen.queryByRole('button', { name: 'Google' })).toBeNull();
  });
});

describe('LoginModal email check', () => {
  it('says nothing when focus leaves the untouched email field (for a provider button), and still refuses an empty Continue', async () => {
    await openOn({ ...NO_OAUTH, GOOGLE_CLIENT_ID: 'google-client', GOOGLE_CLIENT_SECRET: 'google-secret' });
    const email = screen.getByLabelText('Email');
    const google = await screen.findByRole('button', { name: 'Google' });
    fireEvent.blur(email, { relatedTarget: google });
    expect(screen.queryByText(MESSAGES.invalidEmail)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByText(MESSAGES.invalidEmail)).toBeTruthy();
  });
});
