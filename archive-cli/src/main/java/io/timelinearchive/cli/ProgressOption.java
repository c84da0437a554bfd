package io.timelinearchive.cli;

import picocli.CommandLine.Option;

/** {@code --progress}: progress on standard error even when it is not a terminal. */
final class ProgressOption {
  @Option(
      names = "--progress",
      description =
          "Report progress on standard error (counts and rate, at most a line a second) even"
              + " when it is not a terminal; on a terminal it is on anyway.")
  boolean progress;

  /** Whether to report: asked for, or a person is likely watching (a console is attached). */
  boolean enabled() {
    return progress || System.console() != null;
  }
}
