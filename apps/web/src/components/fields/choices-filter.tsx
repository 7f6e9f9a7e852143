import { MultiSelect, type MultiSelectProps } from '@mantine/core';
import { useEffect } from 'react';

type Props = Omit<MultiSelectProps, 'data' | 'value' | 'onChange'> & {
  data: { value: string; label: string }[];
  /** The choices have arrived (until then a kept value cannot be judged). */
  loaded: boolean;
  value: string[];
  onChange: (value: string[]) => void;
};

/**
 * A list filter's several choices of records that can go (the sources: accounts): a kept filter that
 * names one deleted since showed an empty pill and filtered by it, so the list stayed empty for a
 * reason no one could see. Once the choices have arrived, what is no longer among them is let go.
 */
export function ChoicesFilter({ data, loaded, value, onChange, ...props }: Props) {
  const gone = loaded && value.some((v) => !data.some((d) => d.value === v));
  useEffect(() => {
    if (gone) onChange(value.filter((v) => data.some((d) => d.value === v)));
  }, [gone, value, data, onChange]);
  return <MultiSelect {...props} data={data} value={gone ? value.filter((v) => data.some((d) => d.value === v)) : value} onChange={onChange} />;
}
