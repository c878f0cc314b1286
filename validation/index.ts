export { formats } from './formats.ts';
export { fieldErrorText, displayFieldError, type ValidationIssue } from './messages.ts';
