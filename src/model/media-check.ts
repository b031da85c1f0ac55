// Would the provider take this image? Checked before it is sent, from what is cheap to know: the
// base64 length and the first bytes' signature against the declared media type. (A body that is
// corrupt past its header only the provider can find; turn.ts replaces what it refuses.)

const SIGNATURES: Record<string, (b: Uint8Array) => boolean> = {
  "image/png": (b) =>
    b[0] === 0x89 &&
    b[1] === 0x50 &&
    b[2] === 0x4e &&
    b[3] === 0x47 &&
    b[4] === 0x0d &&
    b[5] === 0x0a &&
    b[6] === 0x1a &&
    b[7] === 0x0a,
  "image/jpeg": (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  "image/gif": (b) => b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x38,
  "image/webp": (b) =>
    b[0] === 0x52 &&
    b[1] === 0x49 &&
    b[2] === 0x46 &&
    b[3] === 0x46 &&
    b[8] === 0x57 &&
    b[9] === 0x45 &&
    b[10] === 0x42 &&
    b[11] === 0x50,
};

function head(data: string): Uint8Array {
  // 16 base64 characters = 12 bytes, enough for every signature above.
  const start = data.slice(0, 16);
  try {
    return Uint8Array.from(atob(start.slice(0, start.length - (start.length % 4))), (c) => c.charCodeAt(0));
  } catch {
    return new Uint8Array(0);
  }
}

/** Why the provider would refuse this image (one phrase), or undefined when it looks acceptable. */
export function imageProblem(mimeType: string, data: string, maxBase64Chars: number | undefined): string | undefined {
  if (maxBase64Chars !== undefined && data.length > maxBase64Chars) {
    return `${(data.length / 1024 / 1024).toFixed(1)} MB of base64, over the ${(maxBase64Chars / 1024 / 1024).toFixed(0)} MB this model takes`;
  }
  const sig = SIGNATURES[mimeType];
  if (sig && !sig(head(data))) return `its bytes are not ${mimeType} data`;
  return undefined;
}
