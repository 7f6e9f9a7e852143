/**
 * The colours of a client's answers on a shortlist (the client's page and the lead's): dark enough
 * for white text on them and for them on their own light tint (4.5:1 both).
 */
export const ANSWER_COLOR = { interested: '#1e6b30', notForMe: '#495057' } as const;
