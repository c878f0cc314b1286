import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { SchemaForm, type FormData } from '../../forms/index.ts';
import type { ActionFormDescription } from '../../generated/types.ts';
import { http } from '../../http/index.ts';
import { toastSuccess } from '../../shell/index.ts';
import type { ScreenProps } from '../ScreenProps.ts';
import { DetailItem } from '../shared/DetailItem.tsx';
import { QueryState } from '../shared/QueryState.tsx';
import { actionForm } from '../shared/actionForm.ts';
import { ScreenHeading, SCREEN_TITLE_ID } from '../shared/ScreenHeading.tsx';
import { useFormSubmission } from '../shared/useFormSubmission.ts';
import { useUnsavedChangesPrompt } from '../shared/useUnsavedChangesPrompt.tsx';
import { PasskeysPanel } from './passkeys/PasskeysPanel.tsx';
import { SessionsPanel } from './sessions/SessionsPanel.tsx';
import { SignInsPanel } from './sessions/SignInsPanel.tsx';
import { TwoFactorPanel } from './twoFactor/TwoFactorPanel.tsx';
import '../screens.css';

interface Profile {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  mobile: string | null;
  role: string;
}

const PROFILE_API = 'user/profile';

/**
 * The signed-in user's own profile (ROUTE-11): who they are, and their name and mobile to edit; two-factor sign-in
 * and passkeys;
 * their sessions, to end one or every other, and their recent sign-ins.
 */
export default function ProfileScreen({ resource }: ScreenProps) {
  const form = actionForm(resource, 'edit');
  const profile = useQuery({
    queryKey: ['profile'],
    queryFn: ({ signal }) => http.get<{ data: Profile }>(PROFILE_API, { signal }).then((body) => body.data),
  });
  return (
    <section className="screen" aria-labelledby={SCREEN_TITLE_ID}>
      <ScreenHeading>My profile</ScreenHeading>
      <QueryState query={profile} what="your profile">
        {profile.data && <ProfileForm profile={profile.data} form={form} />}
      </QueryState>
      <TwoFactorPanel />
      <PasskeysPanel />
      <SessionsPanel owner="user" title="Your sessions" canEnd everywhereElse />
      <SignInsPanel owner="user" title="Recent sign-ins" />
    </section>
  );
}

function ProfileForm({ profile, form }: { profile: Profile; form: ActionFormDescription }) {
  const queryClient = useQueryClient();
  const initial = useMemo<FormData>(
    () =>
      Object.fromEntries(
        Object.entries({ first_name: profile.first_name, last_name: profile.last_name, mobile: profile.mobile }).filter(
          ([, value]) => value,
        ),
      ),
    [profile],
  );
  const [formData, setFormData] = useState<FormData>(initial);
  const [saved, setSaved] = useState<FormData>(initial);
  const dirty = JSON.stringify(formData) !== JSON.stringify(saved);
  const { prompt } = useUnsavedChangesPrompt(dirty);
  const submission = useFormSubmission(
    (data) => http.put<{ message?: string; data: Profile }>(PROFILE_API, data),
    (body, data) => {
      toastSuccess(body.message ?? 'Profile updated.');
      setSaved(data);
      queryClient.setQueryData(['profile'], body.data);
    },
  );
  return (
    <div className="panel">
      <dl className="detail-list">
        <DetailItem term="Email">{profile.email}</DetailItem>
        <DetailItem term="Role">{profile.role}</DetailItem>
      </dl>
      <SchemaForm
        label="My profile"
        {...form}
        formData={formData}
        onChange={setFormData}
        {...submission}
        submitLabel="Save profile"
      />
      {prompt}
    </div>
  );
}
