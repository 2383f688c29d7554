import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';
const session = new Session();
session.connect();
let on = false;
process.on('SIGUSR2', () => {
  if (!on) {
    on = true;
    session.post('HeapProfiler.enable', () =>
      session.post('HeapProfiler.startSampling', { samplingInterval: 512, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: false } as never, (e) => console.log('sampling started', e)));
  } else {
    session.post('HeapProfiler.stopSampling', (e, r) => {
      writeFileSync('/tmp/rssprobe/gateway.heapprofile', JSON.stringify((r as { profile: unknown }).profile));
      console.log('sampling written', e);
    });
  }
});
