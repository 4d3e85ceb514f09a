import { errorCodes } from '../../contract/errors';
import { limits } from '../../contract/limits';
import { AppError, badRequest } from './errors';

const acceptedFormats = new Set(['jpeg', 'png', 'gif', 'webp']);

/** The image library (libvips) is loaded on the first upload: it costs a server that sees none ~25 MB. */
const loadSharp = async () => (await import('sharp')).default;

/** The first bytes of the accepted formats: anything else never reaches an image decoder. */
function hasAcceptedSignature(bytes: Buffer): boolean {
  const starts = (signature: number[], offset = 0) =>
    signature.every((byte, i) => bytes[offset + i] === byte);
  return (
    starts([0xff, 0xd8, 0xff]) || // JPEG
    starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) || // PNG
    starts([0x47, 0x49, 0x46, 0x38]) || // GIF8
    (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) // RIFF....WEBP
  );
}

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
  if (!hasAcceptedSignature(bytes)) throw badRequest('Please select an image file (JPEG, PNG, GIF or WebP).');
  let format: string | undefined;
  try {
    format = (await (await loadSharp())(bytes).metadata()).format;
  } catch {
    throw badRequest('Please select an image file (JPEG, PNG, GIF or WebP).');
  }
  if (!format || !acceptedFormats.has(format)) {
    throw badRequest('Please select an image file (JPEG, PNG, GIF or WebP).');
  }
  try {
    const max = limits.profilePicture.maxDimension;
    const output = await (await loadSharp())(bytes, { failOn: 'truncated', limitInputPixels: 50_000_000 })
      .rotate()
      .resize(max, max, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 82 })
      .toBuffer();
    return { bytes: output, contentType: 'image/webp' };
  } catch {
    throw badRequest('The image could not be read: it may be damaged or incomplete.');
  }
}
