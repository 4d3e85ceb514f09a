import fs from 'node:fs';
import path from 'node:path';

/**
 * An exclusive lock on the embedded database's folder. Two processes opening the
 * same PGlite data dir silently lose committed data, so a second opener is refused.
 * The lock file holds the owner's pid; a lock left by a process that no longer runs is taken over.
 */
export class DataDirLockedError extends Error {}

/**
 * Folders this process holds. A lock file with our own pid that is not in here was left by an
 * earlier process that had the same pid (pid 1 in containers), so it is stale; one that is in
 * here means a second opener inside this process, which loses data just the same.
 */
const heldHere = new Set<string>();

export function lockDataDir(dir: string): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const folder = fs.realpathSync(dir);
  const lockPath = path.join(folder, 'dealmaker.lock');
  if (heldHere.has(folder)) {
    throw new DataDirLockedError(`The data folder ${dir} is already open in this process.`);
  }
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
      heldHere.add(folder);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        heldHere.delete(folder);
        if (readOwner(lockPath) === process.pid) fs.rmSync(lockPath, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = readOwner(lockPath);
      if (owner && owner !== process.pid && isRunning(owner)) {
        throw new DataDirLockedError(
          `The data folder ${dir} is in use by another Dealmaker process (pid ${owner}). ` +
            'Stop that process first, or start this one with another DATA_DIR, or use DATABASE_URL for several instances.',
        );
      }
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new DataDirLockedError(`Could not lock the data folder ${dir}.`);
}

function readOwner(lockPath: string): number {
  try {
    return Number(fs.readFileSync(lockPath, 'utf8').trim()) || 0;
  } catch {
    return 0;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
