import fs from 'node:fs';
import path from 'node:path';

/**
 * An exclusive lock on the embedded database's folder. Two processes opening the
 * same PGlite data dir silently lose committed data, so a second opener is refused.
 * The lock file holds the owner's pid; a lock left by a process that no longer runs is taken over.
 */
export class DataDirLockedError extends Error {}

export function lockDataDir(dir: string): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const lockPath = path.join(dir, 'dealmaker.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
      return () => fs.rmSync(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(fs.readFileSync(lockPath, 'utf8').trim());
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

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
