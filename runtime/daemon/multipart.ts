// multipart/form-data bodies (the real daemon's sound upload, a FastAPI
// UploadFile): the parts of one body, each with its headers' name, file name
// and bytes. Small on purpose: one upload route reads it, every other route
// validates what it gets and refuses it (422) like any body it does not take.

export interface Part {
  name: string | null;
  filename: string | null;
  content: Buffer;
}

export interface FormData {
  multipart: true;
  parts: Part[];
}

function boundaryOf(contentType: string): string | null {
  const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return m?.[1] ?? m?.[2] ?? null;
}

function header(headers: string, param: string): string | null {
  const m = new RegExp(`${param}="([^"]*)"`, 'i').exec(headers);
  return m?.[1] ?? null;
}

/** The parts of `body`, or null when it is not multipart data with that boundary. */
export function parseMultipart(body: Buffer, contentType: string): FormData | null {
  const boundary = boundaryOf(contentType);
  if (!boundary) return null;
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: Part[] = [];
  let at = body.indexOf(delimiter);
  if (at < 0) return null;
  for (;;) {
    const start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') return { multipart: true, parts };
    const next = body.indexOf(delimiter, start);
    if (next < 0) return null;
    const chunk = body.subarray(start + 2, next - 2); // after CRLF, before the CRLF that precedes the delimiter
    const split = chunk.indexOf('\r\n\r\n');
    if (split < 0) return null;
    const headers = chunk.subarray(0, split).toString('latin1');
    parts.push({ name: header(headers, 'name'), filename: header(headers, 'filename'), content: chunk.subarray(split + 4) });
    at = next;
  }
}
