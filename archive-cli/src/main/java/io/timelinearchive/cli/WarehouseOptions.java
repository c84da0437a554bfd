package io.timelinearchive.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The options {@code archive-all} and {@code plan-all} add to those of one table. */
final class WarehouseOptions {
  @Option(
      names = "--depth",
      paramLabel = "N",
      defaultValue = "3",
      description =
          "How many folders below BASE_URI a table may be (default ${DEFAULT-VALUE}; 0: BASE_URI"
              + " itself).")
  int depth;

  @Option(
      names = "--parallelism",
      paramLabel = "P",
      defaultValue = "8",
      description = "Tables handled at once (default ${DEFAULT-VALUE}).")
  int parallelism;

  @Option(
      names = "--table-conf",
      paramLabel = "FILE",
      description =
          "Settings of single tables, over --conf: sections [TABLE] (a path below BASE_URI or a"
              + " whole URI) of KEY=VALUE lines.")
  Path tableConf;

  /**
   * @throws IllegalArgumentException naming the option that is out of range
   */
  void check() {
    if (depth < 0 || depth > 64) {
      throw new IllegalArgumentException("--depth must be between 0 and 64, got " + depth);
    }
    if (parallelism < 1 || parallelism > 256) {
      throw new IllegalArgumentException(
          "--parallelism must be between 1 and 256, got " + parallelism);
    }
  }
}
