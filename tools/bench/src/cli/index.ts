// cli/: the one frame every tool enters through: the argument parser (option tables as data, help
// generated from them), runTool (parse, run, exit code), errorText, whenProcessEnds and the lifetime every
// process the tool starts shares with it (lifetime.ts). Imports no other room; every room may import it.
export {
  parseCommandLine,
  helpText,
  HELP_WIDTH,
  UsageError,
  wrap,
  type Command,
  type CommandLine,
  type IntOption,
  type ListOption,
  type OptionSpec,
  type OptionTable,
  type OptionValues,
  type SwitchOption,
  type TextOption,
} from './command-line';
export { runTool, toolExitCode, type ToolMain, type ToolOptions } from './run-tool';
export { errorText } from './error-text';
export { whenProcessEnds } from './process-end';
export { holdLifetime, lifetimeCovers, sweepLifetimeGroups, hierarchies, ownerRuns, processStartTicks, type Hierarchy, type LifetimeHold } from './lifetime';
