// Shows the toast of the modal store (SPEC.md §8 successes and failures) in a live region, without React.
import { MODALS } from '../../lib/product-rules';
import { $toast } from '../../lib/stores/modals';

/** Renders each toast into `region` (a role=status element) and clears it after MODALS.toastMs. */
export function showToasts(region: HTMLElement): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return $toast.subscribe((toast) => {
    clearTimeout(timer);
    region.replaceChildren();
    if (!toast) return;
    const message = document.createElement('p');
    message.className = `toast toast--${toast.kind}`;
    message.textContent = toast.message;
    region.append(message);
    timer = setTimeout(() => $toast.set(null), MODALS.toastMs);
  });
}
