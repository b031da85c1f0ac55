// Imported FIRST by bench/run.ts (before anything loads React): the bench measures the app as
// shipped, and bin/mcp-prism.js runs React/Ink in production mode unless NODE_ENV says otherwise.
process.env.NODE_ENV ??= "production";
export {};
