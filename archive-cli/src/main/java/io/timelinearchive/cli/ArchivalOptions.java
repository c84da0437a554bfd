package io.timelinearchive.cli;

import java.util.LinkedHashMap;
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
      names = "--conf",
      paramLabel = "KEY=VALUE",
      description =
          "Any setting: Hudi's archival keys, archive.* keys, or a storage backend's keys"
              + " (s3.endpoint, …). Repeatable.")
  Map<String, String> conf = new LinkedHashMap<>();

  Map<String, String> config() {
    Map<String, String> config = new LinkedHashMap<>(conf);
    if (min != null) {
      config.put("hoodie.keep.min.commits", min.toString());
    }
    if (max != null) {
      config.put("hoodie.keep.max.commits", max.toString());
    }
    if (batch != null) {
      config.put("hoodie.commits.archival.batch", batch.toString());
    }
    return config;
  }
}
