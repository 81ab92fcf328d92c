/**
 * An append-only log of records in one file, for state whose changes are small and many (issue 23: the
 * run journal, the simulated fleet's state): the first record is a snapshot, each later one a change
 * to it, and once the changes outgrow the snapshot the file is compacted into a new snapshot. A change
 * then costs what it writes, not what the whole state weighs.
 *
 * **Framing.** A record is one line, `<byte length> <crc32 as 8 hex digits> <payload>\n`, the payload
 * JSON (which has no raw newline). A kill in the middle of a write leaves the last record short, or
 * with a checksum that does not match: it is *torn*, and dropped (never read as something else), and
 * the next write first cuts it off. A bad record with anything after it is not a torn write: the file
 * is refused (`RecordLogError`), never read as empty.
 *
 * **Compaction** writes the snapshot to `<file>.<pid>.tmp`, fsyncs it, and renames it over the file:
 * a crash before the rename leaves the old file (snapshot and changes) as it was, one after it the
 * new file; either reads as the same state. Then appends go on in the new file.
 *
 * **Durability.** `append` writes its records in one `write` (group commit); with `fsync` it also
 * flushes them to disk before returning. Without it a record survives the death of the process (it
 * is in the kernel's cache), not a power cut.
 */
import fs from "node:fs";
import path from "node:path";
import { crc32 } from "node:zlib";

/** A file that exists but is not a readable log (or a corrupt record with more after it). */
export class RecordLogError extends Error {
  constructor(
    readonly file: string,
    readonly problem: string,
  ) {
    super(`${file}: ${problem}`);
    this.name = "RecordLogError";
  }
}

export interface LogContents {
  /** The payloads in file order, parsed; the first is the snapshot. */
  records: unknown[];
  /** Bytes of the good records (a torn tail starts here). */
  goodBytes: number;
  /** Bytes of the first record (the snapshot). */
  snapshotBytes: number;
  /** Whether a torn last record was found (and left out). */
  torn: boolean;
}

/** The framed form of one payload (JSON text without raw newlines). */
export function frame(payload: string): string {
  const body = Buffer.from(payload, "utf8");
  return `${body.length} ${crc32(body).toString(16).padStart(8, "0")} ${payload}\n`;
}

/** Whether the file's text is a framed log (else an older whole-file JSON, which opens with `{`). */
export function isFramed(bytes: Buffer): boolean {
  return bytes.length > 0 && bytes[0] !== 0x7b && /^[0-9]/.test(String.fromCharCode(bytes[0] as number));
}

/**
 * Read every good record of `bytes` (the file's whole content). A bad record that is the last thing in
 * the file is torn and dropped; a bad record with more after it throws `RecordLogError`.
 */
export function parseRecords(file: string, bytes: Buffer): LogContents {
  const records: unknown[] = [];
  let at = 0;
  let snapshotBytes = 0;
  while (at < bytes.length) {
    const bad = (problem: string): LogContents => {
      // Torn: nothing but this record's remains after it (a kill mid-write leaves no newline after).
      const nextLine = bytes.indexOf(0x0a, at);
      const endOfRecord = nextLine < 0 ? bytes.length : nextLine + 1;
      if (endOfRecord >= bytes.length) return { records, goodBytes: at, snapshotBytes, torn: true };
      throw new RecordLogError(file, `record ${records.length + 1} (byte ${at}) is corrupt (${problem}) and is not the last one; nothing was changed`);
    };
    const firstSpace = bytes.indexOf(0x20, at);
    const secondSpace = firstSpace < 0 ? -1 : bytes.indexOf(0x20, firstSpace + 1);
    if (firstSpace < 0 || secondSpace < 0 || firstSpace - at > 12 || secondSpace - firstSpace !== 9) return bad("bad header");
    const lengthText = bytes.toString("latin1", at, firstSpace);
    const crcText = bytes.toString("latin1", firstSpace + 1, secondSpace);
    if (!/^[0-9]+$/.test(lengthText) || !/^[0-9a-f]{8}$/.test(crcText)) return bad("bad header");
    const length = Number(lengthText);
    const start = secondSpace + 1;
    const end = start + length;
    if (end + 1 > bytes.length) return bad("short");
    if (bytes[end] !== 0x0a) return bad("no end of record");
    const body = bytes.subarray(start, end);
    if (crc32(body) !== parseInt(crcText, 16)) return bad("checksum mismatch");
    let payload: unknown;
    try {
      payload = JSON.parse(body.toString("utf8"));
    } catch (e) {
      return bad(`not JSON: ${(e as Error).message}`);
    }
    records.push(payload);
    at = end + 1;
    if (records.length === 1) snapshotBytes = at;
  }
  return { records, goodBytes: at, snapshotBytes, torn: false };
}

/** The file's bytes, or undefined when there is no file. */
export function readBytes(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw e;
  }
}

export interface RecordLogOptions {
  /** fsync every append and compaction. */
  fsync: boolean;
  /** Compact once the changes after the snapshot exceed this many times the snapshot's size. */
  compactFactor?: number;
  /** ... and at least this many bytes. */
  compactMinBytes?: number;
}

/**
 * Appends records to a log file, compacting it when due. `open` takes what a read found (or nothing:
 * the first write is then a snapshot). Not safe for two writers at once: the callers hold a lease.
 */
export class RecordLogWriter {
  private fd: number | undefined;
  /** Where the good records of a file read (and not yet appended to) end. */
  private appendAt: number | undefined;
  private snapshotBytes = 0;
  private logBytes = 0;
  /** Bytes written by this writer, appends and compactions (for the bench). */
  written = 0;

  constructor(
    readonly file: string,
    private readonly options: RecordLogOptions,
  ) {}

  /** Whether the file holds a snapshot this writer may append to. */
  get isOpen(): boolean {
    return this.fd !== undefined || this.appendAt !== undefined;
  }

  /**
   * Append from now on to the file as read (`contents`). Opening writes nothing: a torn tail is cut
   * off at the first append, so that the next record does not land after it.
   */
  openExisting(contents: Pick<LogContents, "goodBytes" | "snapshotBytes">): void {
    this.close();
    this.appendAt = contents.goodBytes;
    this.snapshotBytes = contents.snapshotBytes;
    this.logBytes = contents.goodBytes - contents.snapshotBytes;
  }

  /** The file opened to append, a torn tail cut off first. */
  private appendFd(): number {
    if (this.fd !== undefined) return this.fd;
    if (this.appendAt === undefined) throw new Error(`record log ${this.file}: append before a snapshot`);
    const fd = fs.openSync(this.file, "a");
    try {
      if (fs.fstatSync(fd).size !== this.appendAt) {
        fs.ftruncateSync(fd, this.appendAt);
        if (this.options.fsync) fs.fsyncSync(fd);
      }
    } catch (e) {
      fs.closeSync(fd);
      throw e;
    }
    // Opened to append: every write lands at the end, wherever the file ends then.
    this.fd = fd;
    return fd;
  }

  /** Whether the changes have outgrown the snapshot. */
  get compactionDue(): boolean {
    const factor = this.options.compactFactor ?? 4;
    const min = this.options.compactMinBytes ?? 256 * 1024;
    return this.logBytes > Math.max(min, factor * this.snapshotBytes);
  }

  /** Append payloads in one write (and one fsync). */
  append(payloads: readonly string[]): void {
    if (payloads.length === 0) return;
    const fd = this.appendFd();
    const text = payloads.map(frame).join("");
    const bytes = Buffer.from(text, "utf8");
    let at = 0;
    while (at < bytes.length) at += fs.writeSync(fd, bytes, at, bytes.length - at, null);
    if (this.options.fsync) fs.fsyncSync(fd);
    this.logBytes += bytes.length;
    this.written += bytes.length;
  }

  /** Replace the file with one snapshot record (temporary file, fsync, rename), and append to it from now on. */
  compact(snapshot: string): void {
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    const temp = `${this.file}.${process.pid}.tmp`;
    const bytes = Buffer.from(frame(snapshot), "utf8");
    try {
      const fd = fs.openSync(temp, "w");
      try {
        let at = 0;
        while (at < bytes.length) at += fs.writeSync(fd, bytes, at, bytes.length - at, null);
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
      compactionHook?.("beforeRename", this.file);
      fs.renameSync(temp, this.file);
    } catch (e) {
      fs.rmSync(temp, { force: true });
      throw e;
    }
    compactionHook?.("afterRename", this.file);
    this.close();
    this.fd = fs.openSync(this.file, "a");
    this.appendAt = bytes.length;
    this.snapshotBytes = bytes.length;
    this.logBytes = 0;
    this.written += bytes.length;
  }

  close(): void {
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
    this.appendAt = undefined;
  }
}

/** Tests only: called at the crash points of a compaction (a throw there is a crash at that point). */
let compactionHook: ((point: "beforeRename" | "afterRename", file: string) => void) | undefined;
export function setCompactionHookForTests(hook: typeof compactionHook): void {
  compactionHook = hook;
}
