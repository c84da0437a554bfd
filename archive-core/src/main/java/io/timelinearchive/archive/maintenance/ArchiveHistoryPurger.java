package io.timelinearchive.archive.maintenance;

import io.timelinearchive.archive.folder.ArchiveFolder;
import io.timelinearchive.archive.folder.ArchiveLock;
import io.timelinearchive.archive.read.ArchivedTimeline;
import io.timelinearchive.config.Setting;
import io.timelinearchive.select.EffectiveRules;
import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.timeline.TimelineInstant;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * {@value #KEY}: deletes the oldest archive files whose newest instant is at least that old. Only a
 * run of the oldest versions goes, so what stays is one unbroken stretch of history; the newest
 * archive file always stays, as do files this run wrote to.
 */
public final class ArchiveHistoryPurger {
  static final String KEY = "archive.history.max-age";

  public static final Setting<Duration> MAX_AGE =
      Setting.duration(KEY)
          .documentedDefault("off")
          .doc(
              "opt-in archive retention: delete the oldest archive files whose newest instant is"
                  + " older than this")
          .build();

  private ArchiveHistoryPurger() {}

  /**
   * @param folder the archive folder as it is now
   * @param writtenNames files this run created or appended to
   * @return the names of the files deleted, oldest first
   */
  public static List<String> purge(
      MetaStorage storage,
      ArchiveFolder folder,
      Collection<String> writtenNames,
      Duration maxAge,
      Instant now,
      ZoneId zone,
      ArchiveLock lock)
      throws IOException {
    List<FileEntry> archiveFiles = folder.archiveFiles();
    List<StorageLocation> old = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (int i = 0; i < archiveFiles.size() - 1; i++) {
      FileEntry file = archiveFiles.get(i);
      if (writtenNames.contains(file.name())) {
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
