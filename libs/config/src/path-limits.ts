/** Largest bulk transfer (GET /path/bulk on server-a) one request may ask for: the client's path probe reads it too. */
export const BULK_MAX_BYTES = 256 * 1024 * 1024;
