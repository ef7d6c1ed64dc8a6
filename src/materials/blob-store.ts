import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type Store } from '../store/index.js';
import { materialKeys } from './material-keys.js';

/**
 * Where PDF bytes, slices and page texts live. With Redis every node must read what any node wrote, so blobs go
 * into the store itself; with the one-process memory store they go to the local disk (DATA_DIR), which also keeps
 * them out of the heap.
 */
export interface BlobStore {
  readonly kind: 'disk' | 'store';
  put(name: string, bytes: Uint8Array): Promise<void>;
  get(name: string): Promise<Buffer | null>;
  /** Removes a blob; absent is fine (deletion is idempotent: a retried deletion finishes what a failed one began). */
  delete(name: string): Promise<void>;
}

const BLOB_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/;

function checkName(name: string): string {
  // Names come from our own ids, but a path separator here would be a traversal: refuse loudly.
  if (!BLOB_NAME.test(name) || name.includes('..')) throw new Error(`invalid blob name: ${name}`);
  return name;
}

export function createDiskBlobStore(directory: string): BlobStore {
  let ready: Promise<unknown> | undefined;
  return {
    kind: 'disk',
    async put(name, bytes) {
      ready ??= mkdir(directory, { recursive: true });
      await ready;
      const target = path.join(directory, checkName(name));
      // Write then rename, so a reader (or a crash) never sees half a file.
      const temporary = `${target}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        await writeFile(temporary, bytes);
        await rename(temporary, target);
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
    },
    async get(name) {
      try {
        return await readFile(path.join(directory, checkName(name)));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async delete(name) {
      await rm(path.join(directory, checkName(name)), { force: true });
    },
  };
}

export function createStoreBlobStore(store: Store): BlobStore {
  return {
    kind: 'store',
    async put(name, bytes) {
      await store.setBytes(materialKeys.blob(checkName(name)), bytes);
    },
    get: (name) => store.getBytes(materialKeys.blob(checkName(name))),
    async delete(name) {
      await store.del(materialKeys.blob(checkName(name)));
    },
  };
}

/** The blob store that matches the store: shared (in Redis) for several nodes, the local disk for one. */
export function createBlobStore(store: Store, dataDir: string): BlobStore {
  return store.kind === 'redis' ? createStoreBlobStore(store) : createDiskBlobStore(path.join(dataDir, 'blobs'));
}
