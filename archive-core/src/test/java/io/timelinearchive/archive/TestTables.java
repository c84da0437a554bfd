package io.timelinearchive.archive;

import io.timelinearchive.sample.SampleTable;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.LocalDateTime;
import java.util.Map;
import java.util.UUID;

/** Tables for archiver tests, each on a fresh in-memory volume. */
public final class TestTables {
  /** Settings that make a ~240-file copy-on-write sample archive most of its instants. */
  public static final Map<String, String> SMALL_RETENTION =
      Map.of(
          "hoodie.keep.min.commits",
          "5",
          "hoodie.keep.max.commits",
          "10",
          "hoodie.cleaner.commits.retained",
          "3");

  private TestTables() {}

  public static StorageLocation newMemoryTable() {
    return StorageLocation.of("memory://archiver-" + UUID.randomUUID() + "/tables/t1");
  }

  public static MetaStorage memory(StorageLocation base) {
    try {
      return MetaStorages.open(base, Map.of());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** 40 commits, a clean after each from the third on, no barrier: about 240 instant files. */
  public static SampleTable.Spec copyOnWrite(int commits) {
    return new SampleTable.Spec(
        commits, false, 0, 1, 0, 0, false, LocalDateTime.of(2026, 3, 1, 0, 0), commits);
  }

  public static SampleTable.Written write(
      MetaStorage storage, StorageLocation base, SampleTable.Spec spec) {
    try {
      return SampleTable.write(storage, base, spec);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
