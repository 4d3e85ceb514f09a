/** Recovery codes leave the screen only as the person asks: copied, or downloaded as a text file. */

/** The text of the downloaded file: what the codes are for, for whom, when, and the codes one a line. */
export function recoveryCodesText(codes: string[], account: { username: string }, issuedAt: Date): string {
  return [
    'Dealmaker recovery codes',
    `Account: ${account.username}`,
    `Created: ${issuedAt.toISOString().slice(0, 10)}`,
    '',
    'Each code signs you in once when you cannot use your authenticator app or passkey.',
    'Keep them somewhere safe. New codes replace all of these.',
    '',
    ...codes,
    '',
  ].join('\n');
}

export const recoveryCodesFileName = (account: { username: string }) =>
  `dealmaker-recovery-codes-${account.username}.txt`;

/** Hands `text` to the browser as a file download. */
export function downloadTextFile(fileName: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  // After the click has handed the file over.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
