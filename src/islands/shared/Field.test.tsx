// A Field ties its label, control, hint and error together: the label names the control, hint and error describe it.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { OWN_PASTE_NOTICE, watchPasteCuts } from '../../lib/site/paste-watch';
import Field from './Field';

afterEach(cleanup);

describe('Field', () => {
  it('labels its control by id and describes it with the hint; no error, not invalid', () => {
    render(
      <Field id="f-name" label="Name" hint="At most 40 characters">
        <input />
      </Field>,
    );
    const input = screen.getByLabelText('Name');
    expect(input.id).toBe('f-name');
    expect(input.getAttribute('aria-describedby')).toBe('f-name-hint');
    expect(document.getElementById('f-name-hint')?.textContent).toBe('At most 40 characters');
    expect(input.hasAttribute('aria-invalid')).toBe(false);
  });

  it("an error marks the control invalid and describes it after the hint and the control's own descriptions", () => {
    render(
      <Field
        id="f-email"
        label="Email"
        hint="We never share it"
        hintId="email-help"
        hintLive
        error="Invalid email address"
      >
        <input aria-describedby="elsewhere" />
      </Field>,
    );
    const input = screen.getByLabelText('Email');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toBe('elsewhere email-help f-email-error');
    expect(document.getElementById('f-email-error')?.textContent).toBe('Invalid email address');
    expect(document.getElementById('email-help')?.getAttribute('aria-live')).toBe('polite');
  });

  it('without hint or error the control has no description', () => {
    render(
      <Field id="f-plain" label="Topic" error={null}>
        <textarea />
      </Field>,
    );
    const area = screen.getByLabelText('Topic');
    expect(area.tagName).toBe('TEXTAREA');
    expect(area.hasAttribute('aria-describedby')).toBe(false);
    expect(document.getElementById('f-plain-error')).toBeNull();
  });

  it('a paste longer than the maxlength says what was left out, and a paste that fits clears it', async () => {
    render(
      <Field id="f-text" label="Text" hint="0 / 5000 characters">
        <textarea maxLength={5000} />
      </Field>,
    );
    const area = screen.getByLabelText('Text');
    fireEvent.paste(area, { clipboardData: { getData: () => 'x'.repeat(6000) } });
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe(
        'Your paste was longer than the 5,000-character limit, so the last 1,000 characters were left out.',
      ),
    );
    expect(area.getAttribute('aria-describedby')).toBe('f-text-hint f-text-paste');
    fireEvent.paste(area, { clipboardData: { getData: () => 'short' } });
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe(''));
    expect(area.getAttribute('aria-describedby')).toBe('f-text-hint');
  });

  it('marks its control so the page-wide paste watcher does not say it twice', () => {
    render(
      <Field id="f-own" label="Own">
        <input maxLength={5} />
      </Field>,
    );
    expect(screen.getByLabelText('Own').hasAttribute(OWN_PASTE_NOTICE)).toBe(true);
  });
});

describe('watchPasteCuts', () => {
  it('tells what a paste lost in any field with a limit, except those that say it themselves', async () => {
    const told: string[] = [];
    const measured = watchPasteCuts((message) => told.push(message), document);
    const plain = document.createElement('textarea');
    plain.maxLength = 10;
    const own = document.createElement('textarea');
    own.maxLength = 10;
    own.setAttribute(OWN_PASTE_NOTICE, '');
    document.body.append(plain, own);
    for (const field of [plain, own]) fireEvent.paste(field, { clipboardData: { getData: () => 'x'.repeat(25) } });
    await Promise.all(measured);
    expect(told).toEqual([
      'Your paste was longer than the 10-character limit, so the last 15 characters were left out.',
    ]);
    plain.remove();
    own.remove();
  });
});
