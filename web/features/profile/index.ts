/** My Profile: the signed-in user's own record, picture and details. */

// The signed-in user's own record.
export { useMyProfile } from './profile-api';
// The information card, with its Edit Profile mode.
export { ProfileInfoCard } from './profile-info-card';
// The picture card: upload, change, remove, and Reset Password.
export { ProfilePictureCard } from './profile-picture-card';
