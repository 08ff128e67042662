// Which account modal is open (SPEC.md §2 shell, §4 "After login"); several may be due, so they queue.
import { atom } from 'nanostores';

export type ModalName = 'login' | 'invitation' | 'info' | 'suspension' | 'bindEmail';

export const $modal = atom<ModalName | null>(null);
let queue: ModalName[] = [];

/** Opens a modal now, or after the one that is open; asking twice for the same one is harmless. */
export function openModal(name: ModalName): void {
  const current = $modal.get();
  if (current === name || queue.includes(name)) return;
  if (current === null) $modal.set(name);
  else queue.push(name);
}

export function closeModal(): void {
  const [next, ...rest] = queue;
  queue = rest;
  $modal.set(next ?? null);
}

export function resetModals(): void {
  queue = [];
  $modal.set(null);
}

/** A short message for people (SPEC.md §8 successes and failures), shown by the modal host. */
export interface Toast {
  id: number;
  message: string;
  kind: 'success' | 'error';
}

export const $toast = atom<Toast | null>(null);
let toastId = 0;

export function showToast(message: string, kind: Toast['kind'] = 'success'): void {
  toastId += 1;
  $toast.set({ id: toastId, message, kind });
}
