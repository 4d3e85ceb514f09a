import { type ChangeEvent, useRef, useState } from 'react';
import type { User } from '../../../contract/users';
import { Alert } from '../../components/ui/alert';
import { Avatar } from '../../components/ui/avatar';
import { Button } from '../../components/ui/button';
import { Card, CardContent } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { CameraIcon, KeyIcon, TrashIcon } from '../../components/ui/icons';
import { serverReason } from '../../lib/api';
import { useTimedMessage } from '../../lib/use-timed-message';
import { ResetRequestDialog } from '../auth';
import { pictureFileProblem, useRemovePicture, useUploadPicture } from './profile-api';

type Problem = { title: string; detail?: string };

/** The picture card of My Profile: upload, change or remove the picture, and reset the password. */
export function ProfilePictureCard({ user }: { user: User }) {
  const upload = useUploadPicture();
  const remove = useRemovePicture();
  const fileInput = useRef<HTMLInputElement>(null);
  const [success, showSuccess] = useTimedMessage<string>(3000);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [resetOpen, setResetOpen] = useState(false);

  const picture = user.profile.profile_picture;
  const busy = upload.isPending || remove.isPending;
  const displayName = user.full_name || user.username;

  const onFileChosen = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Cleared so that choosing the same file again still counts as a change.
    event.target.value = '';
    if (!file) return;
    const fileProblem = pictureFileProblem(file);
    setProblem(fileProblem ? { title: fileProblem } : null);
    showSuccess(null);
    if (fileProblem) return;
    upload.mutate(file, {
      onSuccess: () => showSuccess('Profile picture updated successfully!'),
      onError: (error) =>
        setProblem({ title: 'Failed to upload profile picture', detail: serverReason(error) }),
    });
  };

  const removePicture = () => {
    setProblem(null);
    showSuccess(null);
    remove.mutate(undefined, {
      onSuccess: () => showSuccess('Profile picture updated successfully!'),
      onError: (error) =>
        setProblem({ title: 'Failed to delete profile picture', detail: serverReason(error) }),
    });
  };

  return (
    <Card>
      <CardContent className="flex flex-col items-center p-6 text-center sm:p-8">
        <div className="relative">
          <Avatar src={picture} name={displayName} size="xl" className="shadow-lg ring-4" />
          {busy && (
            <span className="absolute inset-0 flex items-center justify-center rounded-full bg-white/70">
              <span className="h-8 w-8 animate-spin rounded-full border-[3px] border-indigo-600 border-r-transparent" />
            </span>
          )}
        </div>
        <h2 className="mt-4 text-lg font-semibold text-slate-900">{displayName}</h2>
        <p className="text-sm text-slate-500">@{user.username}</p>

        <div className="mt-6 w-full space-y-3">
          {success && <Alert variant="success">{success}</Alert>}
          {problem && (
            <Alert variant="error" detail={problem.detail}>
              {problem.title}
            </Alert>
          )}
          <input
            ref={fileInput}
            type="file"
            accept="image/*"
            className="sr-only"
            tabIndex={-1}
            aria-label="Profile picture file"
            onChange={onFileChosen}
          />
          <Button
            variant="outline"
            className="w-full"
            loading={upload.isPending}
            disabled={busy}
            onClick={() => fileInput.current?.click()}
          >
            {!upload.isPending && <CameraIcon size={18} />}
            {upload.isPending ? 'Uploading...' : picture ? 'Change Picture' : 'Upload Picture'}
          </Button>
          {picture && (
            <Button
              variant="ghost"
              className="w-full text-rose-600 hover:bg-rose-50 hover:text-rose-700"
              loading={remove.isPending}
              disabled={busy}
              onClick={() => setConfirmOpen(true)}
            >
              {!remove.isPending && <TrashIcon size={18} />}
              {remove.isPending ? 'Removing...' : 'Remove Picture'}
            </Button>
          )}
          <p className="text-xs text-slate-500">JPEG, PNG and GIF supported</p>
          <p className="text-xs text-slate-500">Up to 5 MB</p>
        </div>

        <div className="mt-6 w-full border-t border-slate-100 pt-6">
          <p className="mb-3 text-sm font-medium text-slate-700">Password</p>
          <Button variant="secondary" className="w-full" onClick={() => setResetOpen(true)}>
            <KeyIcon size={18} />
            Reset Password
          </Button>
        </div>
      </CardContent>

      <ConfirmDialog
        open={confirmOpen}
        onOpenChange={setConfirmOpen}
        title="Remove profile picture"
        message="Are you sure you want to remove your profile picture?"
        confirmLabel="Remove"
        variant="danger"
        onConfirm={removePicture}
      />
      <ResetRequestDialog open={resetOpen} onOpenChange={setResetOpen} defaultEmail={user.email} />
    </Card>
  );
}
