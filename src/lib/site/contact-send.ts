// Sending the contact form (/contact-us): every field's problem at once, then the message to the server; loaded with
// the first send, so the page's first load holds only the paste notice (src/lib/product-rules/page-budgets.ts).
import { apiRequest } from '../api';
import { CONTACT_MESSAGES, MESSAGES } from '../product-rules';
import { CONTACT_FIELDS, contactProblems, serverProblem, type ContactField } from './contact-form';

/** Shows each field's problem under it (all at once), marks it invalid, and focuses the first; none clears them. */
function showProblems(form: HTMLFormElement, problems: Partial<Record<ContactField, string>>): void {
  const control = (field: string) => form.querySelector<HTMLInputElement | HTMLTextAreaElement>(`[name="${field}"]`);
  for (const field of CONTACT_FIELDS) {
    const message = problems[field] ?? '';
    const slot = form.querySelector<HTMLElement>(`[data-error-for="${field}"]`);
    if (slot) slot.textContent = message;
    if (message) control(field)?.setAttribute('aria-invalid', 'true');
    else control(field)?.removeAttribute('aria-invalid');
  }
  const first = CONTACT_FIELDS.find((f) => problems[f]);
  if (first) control(first)?.focus();
}

/** Checks the form, sends it, and says in `status` (or under a field the server names) how it went. */
export async function sendContactForm(form: HTMLFormElement, status: HTMLElement): Promise<void> {
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
  const data = Object.fromEntries(new FormData(form));
  status.className = 'contact__status';
  const problems = contactProblems(data);
  showProblems(form, problems);
  if (Object.keys(problems).length > 0) {
    status.textContent = '';
    return;
  }
  status.textContent = 'Sending…';
  if (button) button.disabled = true;
  try {
    await apiRequest('/contact/message', data);
    status.classList.add('contact__status--ok');
    status.textContent = CONTACT_MESSAGES.sent;
    form.reset();
    for (const notice of form.querySelectorAll<HTMLElement>('[data-paste-for]')) notice.textContent = '';
  } catch (error) {
    const refusal = serverProblem(error instanceof Error ? error.message : MESSAGES.failed);
    if (refusal.field) {
      showProblems(form, { [refusal.field]: refusal.message });
      status.textContent = '';
    } else {
      status.classList.add('contact__status--error');
      status.textContent = refusal.message;
    }
  } finally {
    if (button) button.disabled = false;
  }
}
