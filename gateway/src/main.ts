import { startGateway } from './index';

// Process entry: runs the gateway until SIGINT/SIGTERM, then stops cleanly.
startGateway()
  .then((gw) => {
    const shutdown = () => {
      gw.stop().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    };
    process.once('SIGINT', shutdown);
    process.once('SIGTERM', shutdown);
  })
  .catch((e: unknown) => {
    process.stderr.write(`gateway failed to start: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  });
