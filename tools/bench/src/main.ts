// bench: `npx nx run bench:all [options]`: the matrix (run/matrix.ts) run by the one run frame (run/experiment.ts).
import { matrixAxes, matrixCannotRun, matrixExperiment, runExperiment, withClientVariant } from './run';
import { BENCH_ALL_COMMAND, optionsOf } from './plan';
import { runTool } from './cli';

if (require.main === module) {
  runTool(BENCH_ALL_COMMAND, async (line, argv) => {
    const options = await withClientVariant(optionsOf(line));
    const missing = matrixCannotRun(options);
    if (missing) {
      process.stderr.write(`bench: ${missing}\n`);
      return 2;
    }
    return runExperiment(matrixExperiment(options, argv), matrixAxes(options, argv));
  });
}
