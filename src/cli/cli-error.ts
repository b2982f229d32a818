// A failure the CLI reports in one line and exits with: 1 for what went wrong, 2 for a command used wrongly.
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}
