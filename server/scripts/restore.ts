import { ConfigError, loadConfig } from '../config';
import { BackupError, restoreBackup, restoreIntoDataDir } from '../db/backups';
import { EmbeddedPostgresError } from '../db/embedded-postgres-error';
import { DataDirLockedError } from '../db/lock';

/**
 * `npm run restore -- <file> [--force]`
 *
 * Restores a backup made by `npm run backup` (docs/decisions/0025-backups.md) into DATABASE_URL's
 * database, or into the embedded database of DATA_DIR (no server may be running on it). The file is
 * checked against its `.sha256` first. The target must be empty; --force replaces whatever it holds.
 * Exit codes: 0 restored, 1 failed, 2 wrong usage, 3 the target is not empty or in use, 4 the backup
 * file is damaged, missing its checksum, or of a schema this version does not know.
 */
const usage = 'Usage: npm run restore -- <backup file> [--force]';

async function main() {
  const args = process.argv.slice(2);
  const force = args.includes('--force');
  const files = args.filter((arg) => arg !== '--force');
  if (files.length !== 1 || files[0]!.startsWith('-')) {
    console.error(usage);
    process.exit(2);
  }
  const file = files[0]!;
  try {
    const config = loadConfig();
    const result = config.databaseUrl
      ? await restoreBackup(file, config.databaseUrl, { force })
      : await restoreIntoDataDir(config.dataDir, file, { force });
    const where = config.databaseUrl
      ? 'the database of DATABASE_URL'
      : `the embedded database in ${config.dataDir}`;
    console.log(
      `Restored ${file} into ${where}: ${result.rows} rows in ${result.tables.length} tables, ` +
        `schema at migration ${result.migration}, in ${(result.ms / 1000).toFixed(2)} s.\n` +
        'Start the server on it: it brings the schema up to date and makes its restricted database login.',
    );
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      console.error(`${error.message}\nStop the server before restoring into its data folder.`);
      process.exitCode = 3;
      return;
    }
    const known =
      error instanceof BackupError || error instanceof ConfigError || error instanceof EmbeddedPostgresError;
    console.error(known ? (error as Error).message : `The restore failed: ${(error as Error).message}`);
    process.exitCode = error instanceof BackupError ? error.exitCode : 1;
  }
}

await main();
