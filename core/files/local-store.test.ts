import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { fileStoreContract } from './file-store.contract';
import { LocalFileStore } from './local-store';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ordo-files-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('LocalFileStore', () => {
  const store = new LocalFileStore(root);
  fileStoreContract(() => store);

  it('writes no temporary file that outlives a failed upload', async () => {
    const failing = new Readable({
      read() {
        this.destroy(new Error('gone'));
      },
    });
    await expect(store.put('t_x/abc', failing)).rejects.toThrow('gone');
    const left = fs.existsSync(path.join(root, 't_x')) ? fs.readdirSync(path.join(root, 't_x')) : [];
    expect(left).toEqual([]);
  });
});
