import { useParams } from 'react-router-dom';
import DetailScreen from '../generic/DetailScreen.tsx';
import type { ScreenProps } from '../ScreenProps.ts';
import { EmailVerificationPanel } from './users/EmailVerificationPanel.tsx';

/** A user: the generic detail, and whether they have verified their e-mail address, with the link sent again. */
export default function UserDetailScreen(props: ScreenProps) {
  const { id = '' } = useParams();
  return (
    <DetailScreen {...props}>
      <EmailVerificationPanel resource={props.resource} userId={id} />
    </DetailScreen>
  );
}
