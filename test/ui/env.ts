// Imported FIRST by the UI tests (it has no imports, so it runs before chalk/ink load):
// Ink freezes its live frame under CI=true, and colour must be on to see ANSI image output.
delete process.env.CI;
process.env.FORCE_COLOR = "3";
export {};
