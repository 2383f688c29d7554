import { loadConfig } from './config';
import { Runner } from './runner';

async function main(): Promise<void> {
  const runner = new Runner(loadConfig());
  await runner.start();
  let signalled = false;
  const shutdown = (sig: string) => {
    if (signalled) return;
    signalled = true;
    console.log(`${sig} received: stopping`);
    void runner.stop().then(() => process.exit(0));
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(1);
});
