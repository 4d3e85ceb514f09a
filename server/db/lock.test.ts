import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from './client';
import { DataDirLockedError, lockDataDir } from './lock';

let dir: string;
let lockFile: string;
const children: ChildProcess[] = [];

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dealmaker-lock-'));
  lockFile = path.join(dir, 'dealmaker.lock');
});
afterEach(() => {
  for (const child of children.splice(0)) child.kill();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Another process that keeps running until the test ends. */
async function liveProcess(): Promise<number> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  children.push(child);
  await once(child, 'spawn');
  return child.pid!;
}

/** The pid of a process that has already exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await once(child, 'exit');
  return child.pid!;
}

function expectLocked(message: RegExp) {
  let thrown: unknown;
  try {
    lockDataDir(dir);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(DataDirLockedError);
  expect((thrown as Error).message).toMatch(message);
}

describe('lockDataDir', () => {
  it('writes its pid into the lock file, and the release removes it', () => {
    const release = lockDataDir(dir);
    expect(fs.readFileSync(lockFile, 'utf8')).toBe(String(process.pid));
    release();
    expect(fs.existsSync(lockFile)).toBe(false);
    release();
    // Free again: the next opener gets it.
    lockDataDir(dir)();
  });

  it('creates a folder that does not exist yet', () => {
    const nested = path.join(dir, 'a', 'b');
    const release = lockDataDir(nested);
    expect(fs.existsSync(path.join(nested, 'dealmaker.lock'))).toBe(true);
    release();
  });

  it('refuses the folder while the process holding it is alive, with a clear message', async () => {
    const owner = await liveProcess();
    fs.writeFileSync(lockFile, String(owner));
    expectLocked(
      new RegExp(
        `^The data folder ${dir} is in use by another Dealmaker process \\(pid ${owner}\\)\\. ` +
          'Stop that process first, or start this one with another DATA_DIR, or use DATABASE_URL for several instances\\.$',
      ),
    );
    expect(fs.readFileSync(lockFile, 'utf8')).toBe(String(owner));
  });

  it('refuses a second opener inside the same process', () => {
    const release = lockDataDir(dir);
    expectLocked(/already open in this process/);
    // The same folder by another spelling is the same folder.
    let thrown: unknown;
    try {
      lockDataDir(path.join(dir, '.', 'sub', '..'));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(DataDirLockedError);
    release();
    lockDataDir(dir)();
  });

  it('takes over a lock whose process has died', async () => {
    fs.writeFileSync(lockFile, String(await deadPid()));
    const release = lockDataDir(dir);
    expect(fs.readFileSync(lockFile, 'utf8')).toBe(String(process.pid));
    release();
    expect(fs.existsSync(lockFile)).toBe(false);
  });

  it('takes over a lock left by an earlier process with the same pid, or an unreadable one', () => {
    for (const content of [String(process.pid), '', 'garbage']) {
      fs.writeFileSync(lockFile, content);
      const release = lockDataDir(dir);
      expect(fs.readFileSync(lockFile, 'utf8')).toBe(String(process.pid));
      release();
    }
  });

  it('does not remove a lock that another process has taken over since', async () => {
    const release = lockDataDir(dir);
    const other = await liveProcess();
    fs.writeFileSync(lockFile, String(other));
    release();
    expect(fs.readFileSync(lockFile, 'utf8')).toBe(String(other));
  });
});

describe('openDatabase on a data folder', () => {
  it('refuses to open a folder another opener holds, and leaves that lock alone', async () => {
    const release = lockDataDir(dir);
    try {
      await expect(openDatabase({ kind: 'embedded', dataDir: dir })).rejects.toBeInstanceOf(
        DataDirLockedError,
      );
      expect(fs.readFileSync(lockFile, 'utf8')).toBe(String(process.pid));
    } finally {
      release();
    }
  });

  it('holds the lock while open and frees it on close', async () => {
    const database = await openDatabase({ kind: 'embedded', dataDir: dir });
    try {
      expect(fs.readFileSync(lockFile, 'utf8')).toBe(String(process.pid));
      await expect(openDatabase({ kind: 'embedded', dataDir: dir })).rejects.toBeInstanceOf(
        DataDirLockedError,
      );
    } finally {
      await database.close();
    }
    expect(fs.existsSync(lockFile)).toBe(false);
  });
});

describe('the embedded server in a process', () => {
  it("leaves the process's exit code alone after it ran and stopped", async () => {
    // A script (a test run, `npm run operator`) that fails after using the embedded database must exit non-zero.
    const script = `
      const { startEmbeddedPostgres } = await import('./server/db/embedded-postgres.ts');
      const server = await startEmbeddedPostgres(${JSON.stringify(dir)});
      await server.stop();
      process.exitCode = 3;`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: 'ignore',
    });
    children.push(child);
    const [code] = await once(child, 'exit');
    expect(code).toBe(3);
  });
});
