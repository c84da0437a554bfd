package io.timelinearchive.cli;

import picocli.CommandLine.Option;

/**
 * Whether {@code plan} (and {@code archive --dry-run}) lists the instant files after its summary:
 * on a large table the list runs to tens of thousands of lines, so it is asked for.
 */
final class PlanListing {
  @Option(
      names = "--list",
      description = "After the summary, list every instant file that would be archived.")
  boolean list;

  @Option(
      names = "--limit",
      paramLabel = "N",
      description = "After the summary, list the first N instant files that would be archived.")
  Integer limit;

  /** How many files to list: none unless {@code --list} or {@code --limit} asks. */
  long shown(int files) {
    if (limit != null) {
      if (limit < 0) {
        throw new IllegalArgumentException("--limit must be 0 or more, not " + limit);
      }
      return Math.min(limit, files);
    }
    return list ? files : 0;
  }
}
