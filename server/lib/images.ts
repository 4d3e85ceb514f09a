import sharp from 'sharp';
import { errorCodes } from '../../contract/errors';
import { limits } from '../../contract/limits';
import { AppError, badRequest } from './errors';

const acceptedFormats = new Set(['jpeg', 'png', 'gif', 'webp']);

/**
 * Decodes an uploaded picture from its bytes (never trusting its name or type),
 * and re-encodes it as a bounded WebP. Anything that is not a whole JPEG, PNG,
 * GIF or WebP image is refused.
 */
export async function normalizeProfilePicture(
  bytes: Buffer,
): Promise<{ bytes: Buffer; contentType: string }> {
  if (bytes.length === 0) throw badRequest('Please select an image file');
  if (bytes.length > limits.profilePicture.maxBytes) {
    throw new AppError(413, errorCodes.payloadTooLarge, 'File size should be less than 5MB');
  }
  let format: string | undefined;
  try {
    format = (await sharp(bytes).metadata()).format;
  } catch {
    throw badRequest('Please select an image file (JPEG, PNG, GIF or WebP).');
  }
  if (!format || !acceptedFormats.has(format)) {
    throw badRequest('Please select an image file (JPEG, PNG, GIF or WebP).');
  }
  try {
    const max = limits.profilePicture.maxDimension;
    const output = await sharp(bytes, { failOn: 'truncated', limitInputPixels: 50_000_000 })
      .rotate()
      .resize(max, max, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 82 })
      .toBuffer();
    return { bytes: output, contentType: 'image/webp' };
  } catch {
    throw badRequest('The image could not be read: it may be damaged or incomplete.');
  }
}
