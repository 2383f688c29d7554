// Preloaded into each fleet process when BENCH_PROFILE is set (`--cpu-prof` is not allowed in
// NODE_OPTIONS): profiles the CPU from start and writes `<dir>/<pid>.cpuprofile` on SIGUSR2.
const fs = require('node:fs');
const path = require('node:path');
const inspector = require('node:inspector');

const dir = process.env.BENCH_PROFILE_DIR;
if (dir) {
  const session = new inspector.Session();
  session.connect();
  session.post('Profiler.enable', () => session.post('Profiler.start'));
  process.on('SIGUSR2', () => {
    session.post('Profiler.stop', (err, result) => {
      if (err) return;
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, `${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
