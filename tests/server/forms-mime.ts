/**
 * Just enough MIME to read back what the server sent (SMTP peer or .eml file): headers,
 * the text and HTML parts (quoted-printable or base64) and attachments.
 */
export type ParsedMail = {
  headers: Map<string, string>;
  header(name: string): string | undefined;
  text: string;
  html: string;
  attachments: { filename: string; contentType: string; content: string }[];
  raw: string;
};

function splitHead(raw: string): [Map<string, string>, string] {
  const at = raw.search(/\r?\n\r?\n/);
  const head = at === -1 ? raw : raw.slice(0, at);
  const body = at === -1 ? '' : raw.slice(at).replace(/^\r?\n\r?\n/, '');
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return [headers, body];
}

function decodeQp(value: string): string {
  const bytes: number[] = [];
  const soft = value.replace(/=\r?\n/g, '');
  for (let i = 0; i < soft.length; i += 1) {
    if (soft[i] === '=' && /^[0-9A-F]{2}$/i.test(soft.slice(i + 1, i + 3))) {
      bytes.push(parseInt(soft.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(soft[i]!, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Decodes an RFC 2047 encoded-word header (what nodemailer writes for non-ASCII subjects). */
export function decodeHeader(value: string): string {
  return value.replace(/=\?utf-8\?([BQ])\?([^?]*)\?=\s*/gi, (_m, enc: string, text: string) =>
    enc.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : decodeQp(text.replace(/_/g, ' ')),
  );
}

function decodeBody(headers: Map<string, string>, body: string): string {
  const encoding = (headers.get('content-transfer-encoding') ?? '').toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return decodeQp(body);
  return body;
}

export function parseMail(raw: string): ParsedMail {
  const [headers, body] = splitHead(raw);
  const mail: ParsedMail = {
    headers,
    header: (name) => {
      const v = headers.get(name.toLowerCase());
      return v === undefined ? undefined : decodeHeader(v);
    },
    text: '',
    html: '',
    attachments: [],
    raw,
  };
  const walk = (partHeaders: Map<string, string>, partBody: string) => {
    const type = partHeaders.get('content-type') ?? 'text/plain';
    const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
    if (type.toLowerCase().startsWith('multipart/') && boundary) {
      const pieces = partBody.split(`--${boundary}`).slice(1);
      for (const piece of pieces) {
        if (piece.startsWith('--')) break;
        const [h, b] = splitHead(piece.replace(/^\r?\n/, ''));
        walk(h, b.replace(/\r?\n$/, ''));
      }
      return;
    }
    const decoded = decodeBody(partHeaders, partBody);
    const disposition = partHeaders.get('content-disposition') ?? '';
    if (/attachment/i.test(disposition)) {
      const filename = /filename="?([^";]+)"?/i.exec(disposition)?.[1] ?? '';
      mail.attachments.push({ filename, contentType: type.split(';')[0]!.trim(), content: decoded });
    } else if (type.toLowerCase().startsWith('text/html')) mail.html += decoded;
    else if (type.toLowerCase().startsWith('text/plain')) mail.text += decoded;
  };
  walk(headers, body);
  return mail;
}
