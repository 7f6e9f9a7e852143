import { TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';

/** A text filter applied 400 ms after the last key. */
export function TextFilter({ label, value, onChange, testId }: { label: string; value: string; onChange: (v: string) => void; testId: string }) {
  const [text, setText] = useState(value);
  const [settled] = useDebouncedValue(text, 400);
  useEffect(() => setText(value), [value]);
  useEffect(() => {
    if (settled !== value) onChange(settled);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settled]);
  return <TextInput label={label} value={text} onChange={(e) => setText(e.currentTarget.value)} data-testid={testId} />;
}
