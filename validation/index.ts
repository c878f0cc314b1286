export { formats, FORMAT_NAMES, type FormatName } from './formats.ts';
export { fieldErrorText, fieldErrors, fieldOfIssue, displayFieldError, type ValidationIssue } from './messages.ts';
