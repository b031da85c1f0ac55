// The one terminal sanitizer lives in src/protocol (pure) so the host's checker prints through it too.
export * from "../protocol/sanitize.js";
