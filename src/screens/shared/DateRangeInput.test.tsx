import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { DateRangeInput, type DateRange } from './DateRangeInput.tsx';

/** An owner that applies a change later, as a router transition does, and refuses half a range, as a report does. */
function LateOwner({ seen }: { seen: DateRange[] }) {
  const [range, setRange] = useState<DateRange>({ from: '2026-01-01', to: '2026-06-30' });
  return (
    <DateRangeInput
      label="Period"
      value={range}
      onChange={(next) => {
        seen.push(next);
        if (next.from && next.to) setTimeout(() => setRange(next), 0);
      }}
    />
  );
}

describe('DateRangeInput', () => {
  it('a second date changed before the owner applied the first builds on the first', async () => {
    const seen: DateRange[] = [];
    render(<LateOwner seen={seen} />);
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2019-01-01' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2019-03-31' } });
    expect(seen.at(-1)).toEqual({ from: '2019-01-01', to: '2019-03-31' });
    await waitFor(() => expect(screen.getByLabelText('From')).toHaveValue('2019-01-01'));
    expect(screen.getByLabelText('To')).toHaveValue('2019-03-31');
  });

  it('half a range the owner refuses leaves the inputs on the last whole range', () => {
    const seen: DateRange[] = [];
    render(<LateOwner seen={seen} />);
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '' } });
    expect(seen).toEqual([{ from: '2026-01-01', to: '' }]);
    expect(screen.getByLabelText('To')).toHaveValue('2026-06-30');
  });
});
