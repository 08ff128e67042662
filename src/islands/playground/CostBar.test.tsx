// The submit row: a blocked submit is disabled with its reason right under it, and read with it (aria-describedby).
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import CostBar from './CostBar';

afterEach(cleanup);

describe('CostBar', () => {
  it('a blocked submit is disabled and described by its reason, shown after it', () => {
    render(
      <CostBar
        cost={25}
        label="Change clothes"
        busy={false}
        blocked="The clothes changer is not available on this server."
        onSubmit={() => {}}
      />,
    );
    const button = screen.getByRole('button', { name: 'Change clothes' });
    expect(button).toHaveProperty('disabled', true);
    const reason = document.getElementById(button.getAttribute('aria-describedby') ?? '');
    expect(reason?.textContent).toBe('The clothes changer is not available on this server.');
    // Next to the button: its following sibling, not somewhere else on the screen.
    expect(button.nextElementSibling).toBe(reason);
  });

  it('an open submit has no reason and no description', () => {
    render(<CostBar cost={1} label="Generate speech" busy={false} onSubmit={() => {}} />);
    const button = screen.getByRole('button', { name: 'Generate speech' });
    expect(button).toHaveProperty('disabled', false);
    expect(button.hasAttribute('aria-describedby')).toBe(false);
  });
});
