package io.timelinearchive.cli;

import io.timelinearchive.archive.ArchiverSettings;
import io.timelinearchive.archive.maintenance.ArchiveHistoryPurger;
import io.timelinearchive.select.ArchivalPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
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
  Map<String, String> config(CommandSpec spec) {
    Map<String, String> config = ConfOptions.parse(conf);
    if (min != null) {
      config.put(ArchivalPolicy.MIN_COMMITS.key(), min.toString());
    }
    if (max != null) {
      config.put(ArchivalPolicy.MAX_COMMITS.key(), max.toString());
    }
    if (minAge != null) {
      config.put(ArchivalPolicy.RETAIN_MIN_AGE.key(), minAge);
    }
    if (maxPerRun != null) {
      config.put(ArchivalPolicy.MAX_INSTANTS_PER_RUN.key(), maxPerRun.toString());
    }
    if (historyMaxAge != null) {
      config.put(ArchiveHistoryPurger.MAX_AGE.key(), historyMaxAge);
    }
    if (batch != null) {
      config.put(ArchiverSettings.ARCHIVAL_BATCH.key(), batch.toString());
    }
    return ConfOptions.checked(config, spec);
  }
}
