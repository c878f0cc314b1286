import { useParams } from 'react-router-dom';
import { useCanAccess } from '../../permissions/index.ts';
import DetailScreen from '../generic/DetailScreen.tsx';
import type { ScreenProps } from '../ScreenProps.ts';
import { SessionsPanel } from './sessions/SessionsPanel.tsx';
import { SignInsPanel } from './sessions/SignInsPanel.tsx';
import { EmailVerificationPanel } from './users/EmailVerificationPanel.tsx';
import { ResetTwoFactorPanel } from './users/ResetTwoFactorPanel.tsx';

/**
 * A user: the generic detail; whether they have verified their e-mail address, with the link sent again; their second
 * factors (the authenticator app, each passkey) and live sessions, which an administrator who may edit users resets
 * and ends; and their recent sign-ins.
 */
export default function UserDetailScreen(props: ScreenProps) {
  const { id = '' } = useParams();
  const canEnd = useCanAccess(props.resource.module, 'edit').allowed && props.resource.actions.includes('edit');
  const owner = `${props.resource.api}/${id}`;
  return (
    <DetailScreen {...props}>
      <EmailVerificationPanel resource={props.resource} userId={id} />
      <ResetTwoFactorPanel owner={owner} canReset={canEnd} />
      <SessionsPanel owner={owner} title="Sessions" canEnd={canEnd} />
      <SignInsPanel owner={owner} title="Recent sign-ins" />
    </DetailScreen>
  );
}
