/** The column chooser's further fields (a list's `offered` ones): each by its label, in the order of the labels. */
export const moreColumnOptions = (offered: readonly string[], label: (key: string) => string): { key: string; label: string }[] =>
  offered.map((key) => ({ key, label: label(key) })).sort((a, b) => a.label.localeCompare(b.label));
