import { describe, expect, it } from 'vitest';
import { csvStream, GROUP, safeCell } from '../kit/http/csv';
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
