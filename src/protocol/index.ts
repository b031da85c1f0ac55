export * from "./versions.js";
export * from "./schemas.js";
export * from "./selectors.js";
export * from "./json-schema.js";
export * from "./declaration.js";
export * from "./selection.js";
export * from "./projection.js";
export * from "./image-header.js";
