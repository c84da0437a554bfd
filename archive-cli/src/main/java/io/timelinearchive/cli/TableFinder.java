package io.timelinearchive.cli;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.timeline.HoodieTable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * Finds the Hudi tables below a folder: the folders holding a {@code .hoodie} folder, down to a
 * depth. Only sub-folders are listed ({@link MetaStorage#listFolders}, a delimiter listing on
 * object stores), one level at a time with the listings of a level in parallel; a table once found
 * is not descended into, so neither its data files nor its {@code .hoodie} are ever listed. Hidden
 * folders ({@code .x}) that are not a table's {@code .hoodie} are skipped, as Hadoop's input
 * formats skip them.
 */
final class TableFinder {
  /** What a search found: tables and folders that could not be listed, each sorted. */
  record Found(List<StorageLocation> tables, List<Unlisted> unlisted, int listings) {}

  /** A folder whose listing failed: nothing below it was searched. */
  record Unlisted(StorageLocation folder, Exception failure) {}

  private static final Comparator<StorageLocation> BY_NAME =
      Comparator.comparing(StorageLocation::toString);

  private TableFinder() {}

  /**
   * @param depth how many folders below {@code base} a table may be: 0 looks at {@code base} alone
   */
  static Found find(MetaStorage storage, StorageLocation base, int depth, ExecutorService pool)
      throws InterruptedException {
    requireNonNull(storage, "storage is null");
    List<StorageLocation> tables = new ArrayList<>();
    List<Unlisted> unlisted = new ArrayList<>();
    int listings = 0;
    List<StorageLocation> level = List.of(base);
    for (int d = 0; d <= depth && !level.isEmpty(); d++) {
      List<Future<List<StorageLocation>>> children = new ArrayList<>();
      for (StorageLocation folder : level) {
        children.add(pool.submit(() -> storage.listFolders(folder)));
      }
      listings += level.size();
      List<StorageLocation> next = new ArrayList<>();
      for (int i = 0; i < level.size(); i++) {
        StorageLocation folder = level.get(i);
        List<StorageLocation> subFolders;
        try {
          subFolders = children.get(i).get();
        } catch (ExecutionException e) {
          unlisted.add(new Unlisted(folder, cause(e)));
          continue;
        }
        if (subFolders.contains(folder.resolve(HoodieTable.META_FOLDER))) {
          tables.add(folder);
        } else if (d < depth) {
          subFolders.stream().filter(f -> !f.fileName().startsWith(".")).forEach(next::add);
        }
      }
      level = next;
    }
    tables.sort(BY_NAME);
    unlisted.sort(Comparator.comparing(Unlisted::folder, BY_NAME));
    return new Found(tables, unlisted, listings);
  }

  private static Exception cause(ExecutionException e) {
    if (e.getCause() instanceof Exception cause) {
      return cause;
    }
    throw new IllegalStateException("listing failed", e.getCause());
  }
}
