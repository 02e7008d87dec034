// The process entry of the CLI (bin/kubespec requires it, compiled or through ts-node; the serve
// target spawns the compiled one directly): runs the command and turns its outcome into the
// exit code, 2 for a crash or bad usage.
import { main } from './main';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    console.error(`kubespec: ${err?.message ? err.message : err}`);
    process.exitCode = 2;
  },
);
