// Hydrating over pre-rendered HTML after the session loaded: no mismatch (#418), then the live value shows.
import { act } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { useStore } from '@nanostores/react';
import { atom, type ReadableAtom } from 'nanostores';
import { describe, expect, it } from 'vitest';
import { useHydratedStore } from './useHydratedStore';

const text = (name: string | null) => <p>{name ? `Hello ${name}` : 'Loading your account…'}</p>;
const Hydrated = ({ store }: { store: ReadableAtom<string | null> }) => text(useHydratedStore(store, null));
const Plain = ({ store }: { store: ReadableAtom<string | null> }) => text(useStore(store));

/** Renders as the build did (no session), loads the session, then hydrates; returns React's recoverable errors. */
async function hydrateAfterSessionLoaded(read: 'hydrated' | 'plain') {
  const $name = atom<string | null>(null);
  const container = document.createElement('div');
  const Island = read === 'hydrated' ? Hydrated : Plain;
  container.innerHTML = renderToString(<Island store={$name} />);
  $name.set('Ada');
  const errors: unknown[] = [];
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  await act(async () => {
    hydrateRoot(container, <Island store={$name} />, { onRecoverableError: (e) => errors.push(e) });
  });
  return { errors, text: container.textContent };
}

describe('useHydratedStore', () => {
  it('hydrates with the built value, without a mismatch, then renders the live one', async () => {
    const { errors, text } = await hydrateAfterSessionLoaded('hydrated');
    expect(errors).toEqual([]);
    expect(text).toBe('Hello Ada');
  });

  it('(the mismatch it prevents: useStore reads the live value while hydrating)', async () => {
    const { errors } = await hydrateAfterSessionLoaded('plain');
    expect(errors.length).toBeGreaterThan(0);
  });
});
