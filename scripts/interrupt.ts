/**
 * Has an interrupted run (Ctrl+C, or SIGTERM) clean up after itself: `cleanUp` runs once, then the
 * process exits as interrupted (130, or 143). A second signal during the clean-up is ignored.
 */
export function cleanUpOnInterrupt(cleanUp: () => Promise<void>): void {
  let cleaning = false;
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    process.on(signal, () => {
      if (cleaning) return;
      cleaning = true;
      process.stderr.write(`\n${signal}: stopping the services and removing the run's database and data directory\n`);
      void cleanUp()
        .catch((error: unknown) => process.stderr.write(`clean-up failed: ${String(error)}\n`))
        .finally(() => process.exit(code));
    });
  }
}
