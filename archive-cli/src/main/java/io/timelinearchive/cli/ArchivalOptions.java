package io.timelinearchive.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/** The settings shared by {@code archive} and {@code plan}. */
final class ArchivalOptions {
  @Option(names = "--min", paramLabel = "N", description = "hoodie.keep.min.commits (default 20)")
  Integer min;

  @Option(names = "--max", paramLabel = "N", description = "hoodie.keep.max.commits (default 30)")
  Integer max;

  @Option(
      names = "--batch",
      paramLabel = "N",
      description = "hoodie.commits.archival.batch: records per archive block (default 10)")
  Integer batch;

  @Option(
      names = "--min-age",
      paramLabel = "DURATION",
      description = "archive.retain.min-age: never archive instants younger than this (e.g. 7d)")
  String minAge;

  @Option(
      names = "--max-per-run",
      paramLabel = "N",
      description = "archive.max-instants-per-run: archive at most N instants in one run")
  Integer maxPerRun;

  @Option(
      names = "--history-max-age",
      paramLabel = "DURATION",
      description =
          "archive.history.max-age: delete archive files whose newest instant is older (never the"
              + " newest file)")
  String historyMaxAge;

  @Option(
      names = "--conf",
      paramLabel = "KEY=VALUE",
      description =
          "Any setting: Hudi's archival keys, archive.* keys, or a storage backend's keys"
              + " (s3.endpoint, ...). Repeatable.")
  List<String> conf = new ArrayList<>();

  /**
   * The settings, {@code --min}, {@code --max}, {@code --batch}, {@code --min-age}, {@code
   * --max-per-run} and {@code --history-max-age} over the same keys given with {@code --conf}.
   */
  Map<String, String> config() {
    Map<String, String> config = ConfOptions.parse(conf);
    if (min != null) {
      config.put("hoodie.keep.min.commits", min.toString());
    }
    if (max != null) {
      config.put("hoodie.keep.max.commits", max.toString());
    }
    if (minAge != null) {
      config.put("archive.retain.min-age", minAge);
    }
    if (maxPerRun != null) {
      config.put("archive.max-instants-per-run", maxPerRun.toString());
    }
    if (historyMaxAge != null) {
      config.put("archive.history.max-age", historyMaxAge);
    }
    if (batch != null) {
      config.put("hoodie.commits.archival.batch", batch.toString());
    }
    return config;
  }
}
