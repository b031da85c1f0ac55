// Default bounds shared by the host and the checker (both read what an untrusted server sends).

/** Largest accepted tool result or JSON-RPC line, in bytes (the host's `limits.maxResultBytes` default). */
export const DEFAULT_MAX_RESULT_BYTES = 8 * 1024 * 1024;
