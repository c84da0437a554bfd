package io.timelinearchive.archive;

import io.timelinearchive.format.ArchiveFileName;
import io.timelinearchive.select.EffectiveRules;
import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.timeline.TimelineInstant;
import java.io.IOException;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code archive.history.max-age}: deletes the oldest archive files whose newest instant is at
 * least that old. Only a run of the oldest versions goes, so what stays is one unbroken stretch of
 * history; the newest archive file always stays, as do files this run wrote to.
 */
final class ArchiveHistoryPurger {
  static final String MAX_AGE = "archive.history.max-age";

  private ArchiveHistoryPurger() {}

  /**
   * @param archiveFiles the archive files by version ascending, as listed before this run wrote
   * @param writtenNames files this run created or appended to
   * @return the names of the files deleted, oldest first
   */
  static List<String> purge(
      MetaStorage storage,
      List<FileEntry> archiveFiles,
      List<String> writtenNames,
      Duration maxAge,
      java.time.Instant now,
      ZoneId zone,
      ArchiveLock lock)
      throws IOException {
    List<StorageLocation> old = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (int i = 0; i < archiveFiles.size() - 1; i++) {
      FileEntry file = archiveFiles.get(i);
      if (writtenNames.contains(file.name()) || ArchiveFileName.version(file.name()).isEmpty()) {
        break;
      }
      Optional<String> newest =
          ArchivedTimeline.readFile(storage, file, 0).instants().stream()
              .map(a -> a.instant())
              .map(TimelineInstant::time)
              .max(String::compareTo);
      // An empty file (a writer died before its first block) holds no history to keep.
      if (newest.isPresent() && !EffectiveRules.isAtLeast(newest.get(), maxAge, now, zone)) {
        break;
      }
      old.add(file.location());
      names.add(file.name());
    }
    if (!old.isEmpty()) {
      lock.check();
      storage.deleteAll(old);
    }
    return names;
  }
}
