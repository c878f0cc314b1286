export { LoginScreen } from './LoginScreen.tsx';
export { ForgotPasswordScreen } from './ForgotPasswordScreen.tsx';
export { ResetPasswordScreen } from './ResetPasswordScreen.tsx';
export { VerifyEmailScreen } from './VerifyEmailScreen.tsx';
