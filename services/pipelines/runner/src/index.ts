/** Anvil reference runner: filled in by the pipelines work (issue 26). */
export {};
