import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from '../config';
import { BackupError, type BackupResult, backupDataDir, backupFileName, writeBackup } from '../db/backups';
import { EmbeddedPostgresError } from '../db/embedded-postgres-error';
import { DataDirLockedError } from '../db/lock';

/**
 * `npm run backup [-- --out <file or folder>]`
 *
 * A consistent backup of the marketplace (docs/decisions/0025-backups.md): of DATABASE_URL's database,
 * or of the embedded database of DATA_DIR — through the running server's socket when one runs there,
 * else by starting it for the time of the backup. Written to DATA_DIR/backups/ by default, with its
 * SHA-256 beside it. Exit codes: 0 done, 1 failed, 2 wrong usage.
 */
const usage = 'Usage: npm run backup [-- --out <file or folder>]';

function destination(out: string | undefined, dataDir: string): string {
  const folder = out ?? path.join(dataDir, 'backups');
  const isFolder =
    out === undefined || /[/\\]$/.test(out) || (fs.existsSync(out) && fs.statSync(out).isDirectory());
  return isFolder ? path.join(folder, backupFileName(new Date())) : path.resolve(out);
}

export function describeBackup(result: BackupResult): string {
  const counts = result.tables
    .filter((table) => table.rows > 0)
    .map((table) => `${table.name.replace(/^public\./, '')} ${table.rows}`)
    .join(', ');
  return [
    `Backup written: ${result.file}`,
    `  ${(result.bytes / 1024).toFixed(1)} kB in ${(result.ms / 1000).toFixed(2)} s; schema at migration ${result.migration}`,
    `  ${result.rows} rows: ${counts || 'none'}`,
    `  SHA-256 ${result.sha256} (${path.basename(result.checksumFile)})`,
  ].join('\n');
}

async function main() {
  const args = process.argv.slice(2);
  let out: string | undefined;
  for (let index = 0; index < args.length; index++) {
    if (args[index] === '--out' && args[index + 1]) out = args[++index];
    else if (args[index]?.startsWith('--out=')) out = args[index]!.slice('--out='.length);
    else {
      console.error(usage);
      process.exit(2);
    }
  }
  try {
    const config = loadConfig();
    const file = destination(out, config.dataDir);
    const result = config.databaseUrl
      ? await writeBackup(config.databaseUrl, file)
      : await backupDataDir(config.dataDir, file);
    console.log(describeBackup(result));
  } catch (error) {
    const known =
      error instanceof BackupError ||
      error instanceof ConfigError ||
      error instanceof DataDirLockedError ||
      error instanceof EmbeddedPostgresError;
    console.error(known ? (error as Error).message : `The backup failed: ${(error as Error).message}`);
    process.exitCode = error instanceof BackupError ? error.exitCode : 1;
  }
}

await main();
