/** My Profile: the signed-in user's own record, picture, details and who sees them. */

// The privacy card: who sees the email, date of birth and address.
export { PrivacyCard } from './privacy-card';
// The signed-in user's own record.
export { useMyProfile } from './profile-api';
// The information card, with its Edit Profile mode.
export { ProfileInfoCard } from './profile-info-card';
// The picture card: upload, change, remove, and Reset Password.
export { ProfilePictureCard } from './profile-picture-card';
