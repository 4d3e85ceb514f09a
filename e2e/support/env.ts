/** Where global-setup started the server, read in the worker processes. */
export function e2eEnv() {
  const baseUrl = process.env.DEALMAKER_E2E_BASE_URL;
  const dataDir = process.env.DEALMAKER_E2E_DATA_DIR;
  if (!baseUrl || !dataDir) {
    throw new Error('The e2e server is not running: run the journeys with `npm run test:e2e`.');
  }
  return { baseUrl, dataDir };
}
