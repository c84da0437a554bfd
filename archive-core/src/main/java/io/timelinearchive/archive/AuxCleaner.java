package io.timelinearchive.archive;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.timeline.Action;
import io.timelinearchive.timeline.HoodieTable;
import io.timelinearchive.timeline.InstantFileName;
import io.timelinearchive.timeline.TimelineInstant;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Removes copies of instant files in {@code .hoodie/.aux/} at or before the newest archived commit
 * or deltacommit (Hudi 0.5–0.13 copied compaction plans there); nothing else in {@code .aux/}
 * ({@code .bootstrap/}, …) is touched.
 */
final class AuxCleaner {
  private AuxCleaner() {}

  /**
   * @return how many files were removed
   */
  static int clean(MetaStorage storage, HoodieTable table, List<TimelineInstant> archived)
      throws IOException {
    requireNonNull(storage, "storage is null");
    Optional<String> threshold =
        archived.stream()
            .filter(TimelineInstant::isCompleted)
            .filter(i -> i.action() == Action.COMMIT || i.action() == Action.DELTA_COMMIT)
            .map(TimelineInstant::time)
            .max(Comparator.naturalOrder());
    if (threshold.isEmpty()) {
      return 0;
    }
    List<StorageLocation> old = new ArrayList<>();
    for (FileEntry f : storage.list(table.auxFolder()).toList()) {
      if (InstantFileName.parse(f.name()) instanceof InstantFileName.Result.Parsed p
          && p.instant().time().compareTo(threshold.get()) <= 0) {
        old.add(f.location());
      }
    }
    if (!old.isEmpty()) {
      storage.deleteAll(old);
    }
    return old.size();
  }
}
