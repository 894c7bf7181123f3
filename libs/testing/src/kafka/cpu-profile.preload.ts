/**
 * A CPU profile of a whole app process, for benchmarks: `NODE_OPTIONS="--require
 * dist/libs/testing/src/kafka/cpu-profile.preload.js"` with CPU_PROFILE_DIR set (Node 20 refuses
 * `--cpu-prof` in NODE_OPTIONS, and the bench starts apps through startApp, without execArgv).
 * The profile (Chrome DevTools `.cpuprofile`) is written when the process is asked to stop
 * (SIGTERM/SIGINT: Nest's shutdown hooks then kill it by the signal, so no `exit` event; with no
 * other listener the signal is raised again) or exits.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';

const dir = process.env.CPU_PROFILE_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', {
    interval: Number(process.env.CPU_PROFILE_INTERVAL_US ?? 200),
  });
  session.post('Profiler.start');
  let written = false;
  const write = () => {
    if (written) return;
    written = true;
    // An in-thread inspector session answers synchronously.
    session.post('Profiler.stop', (error, result) => {
      if (error) return;
      writeFileSync(
        join(dir, `${process.pid}-${Date.now()}.cpuprofile`),
        JSON.stringify(result.profile),
      );
    });
  };
  const onSignal = (signal: NodeJS.Signals) => {
    write();
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
    // Alone, this listener would keep the process alive: let the signal do what it would have.
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  process.on('exit', write);
}
