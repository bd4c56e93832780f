// One argument parser for every tool of the bench: option tables as data, help generated from them.
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
