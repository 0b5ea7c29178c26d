import fs from 'node:fs';

/**
 * Fixed-size records on disk, read back in any order: what a pass keeps for a later one (frames
 * for a backward pass, its answers for the forward pass) without holding a long video in memory.
 */
export class RecordSpool {
  private readonly fd: number;
  private count = 0;

  constructor(
    readonly file: string,
    private readonly recordBytes: number,
  ) {
    this.fd = fs.openSync(file, 'w+');
  }

  /** Appends a record; returns its slot. */
  append(bytes: Uint8Array): number {
    if (bytes.byteLength !== this.recordBytes)
      throw new Error(`a record is ${this.recordBytes} bytes, not ${bytes.byteLength}`);
    fs.writeSync(this.fd, bytes, 0, bytes.byteLength, this.count * this.recordBytes);
    return this.count++;
  }

  read(slot: number): Uint8Array {
    if (slot < 0 || slot >= this.count)
      throw new Error(`no record ${slot} (${this.count} written)`);
    const out = new Uint8Array(this.recordBytes);
    fs.readSync(this.fd, out, 0, this.recordBytes, slot * this.recordBytes);
    return out;
  }

  close(): void {
    fs.closeSync(this.fd);
    fs.rmSync(this.file, { force: true });
  }
}
