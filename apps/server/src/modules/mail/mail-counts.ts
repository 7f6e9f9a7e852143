/** The job that counts again the records whose mail changed (decision 105). */
export const MAIL_COUNTS_FOLD_JOB = 'mail.countsFold';

/** More messages than this waiting to be folded (an expunge of thousands): every record counted on the spot until the fold (decision 105). */
export const WAITING_MESSAGES_LOOKED_UP = 64;
