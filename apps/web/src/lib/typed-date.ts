// The reading lives in the contract: the spreadsheet import reads typed dates the same way.
export { parseTypedDate } from '@crm/contract/typed-date';
