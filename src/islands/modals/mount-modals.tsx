// Mounts the modal host into its own root at the end of the page; imported on demand by modal-loader.ts.
import { createRoot } from 'react-dom/client';
import ModalHost from './ModalHost';

export function mountModals(): void {
  const host = document.createElement('div');
  host.id = 'modal-root';
  document.body.append(host);
  createRoot(host).render(<ModalHost />);
}
