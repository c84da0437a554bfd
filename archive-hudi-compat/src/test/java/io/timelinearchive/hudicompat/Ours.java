package io.timelinearchive.hudicompat;

import io.timelinearchive.archive.ArchiveResult;
import io.timelinearchive.archive.InvariantChecker;
import io.timelinearchive.archive.TimelineArchiver;
import io.timelinearchive.archive.read.ArchiveReadOptions;
import io.timelinearchive.archive.read.ArchivedTimeline;
import io.timelinearchive.select.ArchivalPlan;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.timeline.HoodieTable;
import java.io.IOException;
import java.util.Map;

/**
 * Our archiver and reader on a table given by URI, its archive where the table says ({@code
 * file:///…} or {@code hdfs://…}).
 */
final class Ours {
  private Ours() {}

  static ArchiveResult archive(String tableUri, Map<String, String> config) throws IOException {
    try (TimelineArchiver archiver = TimelineArchiver.open(tableUri, config)) {
      return archiver.archiveIfRequired();
    }
  }

  static ArchivalPlan plan(String tableUri, Map<String, String> config) throws IOException {
    try (TimelineArchiver archiver = TimelineArchiver.open(tableUri, config)) {
      return archiver.plan();
    }
  }

  static ArchivedTimeline read(String tableUri, Map<String, String> config) throws IOException {
    StorageLocation base = StorageLocation.of(tableUri);
    try (MetaStorage storage = MetaStorages.open(base, config)) {
      return ArchivedTimeline.load(
          storage, HoodieTable.load(storage, base).archiveFolder(), ArchiveReadOptions.all());
    }
  }

  /** Every instant file directly in {@code .hoodie/}, by name, with its bytes. */
  static Map<String, byte[]> instantFiles(String tableUri, Map<String, String> config)
      throws IOException {
    StorageLocation base = StorageLocation.of(tableUri);
    try (MetaStorage storage = MetaStorages.open(base, config)) {
      return InvariantChecker.snapshot(storage, base.resolve(".hoodie"));
    }
  }

  /**
   * Violations of the archive protocol's invariants since {@code before}, by the core's checker.
   */
  static java.util.List<String> invariantViolations(
      String tableUri, Map<String, String> config, Map<String, byte[]> before) throws IOException {
    StorageLocation base = StorageLocation.of(tableUri);
    try (MetaStorage storage = MetaStorages.open(base, config)) {
      StorageLocation meta = base.resolve(".hoodie");
      return new InvariantChecker(before)
          .check(storage, meta, HoodieTable.load(storage, base).archiveFolder());
    }
  }
}
