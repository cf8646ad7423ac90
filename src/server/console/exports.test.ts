import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { CSV_CUT_ROW, csvStream, ExportFailed, GROUP, safeCell } from '../kit/http/csv';
import { isoUtc } from './exports';

async function text(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

describe('safeCell: a cell no spreadsheet runs as a formula', () => {
  it.each(['=1+1', '+44 20', '-5', '@SUM(A1)', '\tx', '\rx'])('prefixes %j with a quote', (value) => {
    expect(safeCell(value)).toBe(`'${value}`);
  });

  it('leaves ordinary text, and a formula character later in the cell, as it is', () => {
    expect(safeCell('Ada Lovelace')).toBe('Ada Lovelace');
    expect(safeCell('a=b')).toBe('a=b');
    expect(safeCell(" '=already")).toBe(" '=already");
  });

  it('prefixes every line of a cell that a formula would start, after LF, CR or CRLF', () => {
    expect(safeCell("Please call me back.\n=cmd|' /C calc'!A0\nfakeid;contact;2026-01-01")).toBe(
      "Please call me back.\n'=cmd|' /C calc'!A0\nfakeid;contact;2026-01-01",
    );
    expect(safeCell('a\r+1\r\n-2\n@x\n\tt\n\r=y')).toBe("a\r'+1\r\n'-2\n'@x\n'\tt\n'\r'=y");
    expect(safeCell('=a\n=b')).toBe("'=a\n'=b");
    expect(safeCell('two\nlines')).toBe('two\nlines');
  });

  it('counts NEL, the Unicode line and paragraph separators, VT and FF as line breaks, and sees a formula after blanks', () => {
    for (const br of ['\u0085', '\u2028', '\u2029', '\v', '\f']) {
      expect(safeCell(`x${br}=cmd`), JSON.stringify(br)).toBe(`x${br}'=cmd`);
    }
    expect(safeCell(' =cmd')).toBe("' =cmd");
    expect(safeCell('\u00a0 +1')).toBe("'\u00a0 +1");
    expect(safeCell('x\n  @SUM(A1)')).toBe("x\n'  @SUM(A1)");
    expect(safeCell('a = b')).toBe('a = b');
  });

  it('writes nothing for null and undefined, ISO time for a date, JSON for an object', () => {
    expect(safeCell(null)).toBe('');
    expect(safeCell(undefined)).toBe('');
    expect(safeCell(new Date('2026-01-02T03:04:05Z'))).toBe('2026-01-02T03:04:05.000Z');
    expect(safeCell({ a: 1 })).toBe('{"a":1}');
    expect(safeCell(-3)).toBe("'-3");
  });
});

describe('csvStream', () => {
  it('writes a BOM, a header, CRLF rows, and quotes what needs quoting', async () => {
    const rows = (async function* () {
      yield [['plain', 'comma, "quote"\nnewline']];
      yield [];
      yield [['=cmd', null]];
    })();
    const out = await text(csvStream(['A', 'B'], rows));
    expect(out).toBe('\uFEFFA,B\r\nplain,"comma, ""quote""\nnewline"\r\n\'=cmd,\r\n');
  });

  it('quotes every cell with a bare LF or CR, so no spreadsheet reads its lines as rows', async () => {
    const message = "Please call me back.\n=cmd|' /C calc'!A0\nfakeid;contact;2026-01-01";
    const rows = (async function* () {
      yield [['id-1', message, 'carriage\rreturn', 'plain']];
    })();
    const out = await text(csvStream(['Id', 'Message', 'Notes', 'Other'], rows));
    expect(out).toBe(
      '\uFEFFId,Message,Notes,Other\r\n' +
        `id-1,"Please call me back.\n'=cmd|' /C calc'!A0\nfakeid;contact;2026-01-01","carriage\rreturn",plain\r\n`,
    );
    const parsed = parse(out, { bom: true }) as string[][];
    expect(parsed).toHaveLength(2);
    expect(parsed[1]).toEqual([
      'id-1',
      "Please call me back.\n'=cmd|' /C calc'!A0\nfakeid;contact;2026-01-01",
      'carriage\rreturn',
      'plain',
    ]);
    for (const line of out.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/))
      expect(line).not.toMatch(/^[=+\-@\t\r]/);
  });

  it('quotes a cell holding a Unicode line separator, and no line split there starts a formula', async () => {
    const rows = (async function* () {
      yield [['id-2', 'call me\u2028=cmd|calc\u0085 @x', 'plain']];
    })();
    const out = await text(csvStream(['Id', 'Message', 'Other'], rows));
    expect(out).toContain(`"call me\u2028'=cmd|calc\u0085' @x"`);
    expect(parse(out, { bom: true })).toHaveLength(2);
    for (const line of out.replace(/^\uFEFF/, '').split(/\r\n|[\r\n\v\f\u0085\u2028\u2029]/))
      expect(line.trimStart()).not.toMatch(/^[=+\-@\t\r]/);
  });

  it("ends a file whose rows stopped with the cut row, and fails with the cause's code only", async () => {
    const rows = (async function* () {
      yield [['a', '1']];
      throw Object.assign(new Error('Failed query: select ... params: ada@example.org'), { code: '57014' });
    })();
    const stream = csvStream(['A', 'B'], rows);
    const chunks: string[] = [];
    const failure = await new Promise<unknown>((resolve) => {
      stream.on('data', (chunk: Buffer) => chunks.push(String(chunk)));
      stream.on('error', resolve);
      stream.on('end', () => resolve(null));
    });
    expect(failure).toBeInstanceOf(ExportFailed);
    expect(failure).toMatchObject({ code: '57014', rows: 1 });
    expect(String((failure as Error).message)).not.toContain('example.org');
    expect(chunks.join('')).toBe(`\uFEFFA,B\r\na,1\r\n${CSV_CUT_ROW}\r\n`);
  });

  it('writes a batch larger than a group whole and in order, neutralising every group', async () => {
    const batch = Array.from({ length: GROUP * 2 + 3 }, (_, i) => [`row ${i}`, i % 7 === 0 ? `=${i}` : i]);
    const expected = batch.map(([a, b]) => `${String(a)},${typeof b === 'string' ? `'${b}` : String(b)}\r\n`);
    const out = await text(
      csvStream(
        ['A', 'B'],
        (async function* () {
          yield batch.map((row) => [...row]);
        })(),
      ),
    );
    expect(out).toBe(`\uFEFFA,B\r\n${expected.join('')}`);
  });

  it('gives way: while its turn is held it hands on what it made and asks for no more rows', async () => {
    const groups = 4;
    let pulled = 0;
    const rows = (async function* () {
      for (let g = 0; g < groups; g += 1) {
        pulled += 1;
        yield Array.from({ length: GROUP }, (_, i) => [`g${g}`, i]);
      }
    })();
    // The first turn is held; every later one is free.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let turns = 0;
    const giveWay = { turn: () => (++turns === 1 ? held : undefined) };
    const stream = csvStream(['A', 'B'], rows, giveWay);
    const chunks: string[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(String(chunk)));
    const ended = new Promise((resolve) => stream.on('end', resolve));
    for (let i = 0; i < 20; i += 1) await new Promise((resolve) => setImmediate(resolve));

    // The header and the first group went out; the second group was not asked for.
    expect(pulled).toBe(1);
    expect(chunks.join('')).toContain('g0,24\r\n');
    expect(chunks.join('')).not.toContain('g1,');

    release();
    await ended;
    const lines = chunks.join('').split('\r\n').filter(Boolean);
    expect(pulled).toBe(groups);
    expect(lines).toHaveLength(1 + groups * GROUP);
    expect(turns).toBe(groups);
  });
});

describe('isoUtc', () => {
  it('writes the database JSON time as Date#toISOString does, whatever its fraction', () => {
    for (const [text, iso] of [
      ['2026-11-24T09:05:00', '2026-11-24T09:05:00.000Z'],
      ['2026-11-24T09:05:00.5', '2026-11-24T09:05:00.500Z'],
      ['2026-11-24T09:05:00.25', '2026-11-24T09:05:00.250Z'],
      ['2026-11-24T09:05:00.123456', '2026-11-24T09:05:00.123Z'],
      ['2026-03-29T01:30:00.999999', '2026-03-29T01:30:00.999Z'],
    ]) {
      expect(isoUtc(text!)).toBe(iso);
      expect(isoUtc(text!)).toBe(new Date(`${text}Z`).toISOString().replace(/\.(\d{3})\d*Z$/, '.$1Z'));
    }
  });
});
