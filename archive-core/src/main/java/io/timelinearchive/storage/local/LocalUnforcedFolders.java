package io.timelinearchive.storage.local;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The folders whose deletes this storage has not forced yet. A delete is not forced when it is
 * made, so that a run of deletes costs one force of its folder, not one each (see {@link
 * LocalMetaStorage}). The first operation in another folder, a create or an append forces these
 * folders first, so that across folders what survives a power loss follows the order of the calls.
 */
final class LocalUnforcedFolders {
  private final Set<Path> folders = new LinkedHashSet<>();

  /** Forces every unforced folder but those of {@code next}, the operation about to be made. */
  synchronized void forceAllBut(Collection<Path> next) throws IOException {
    List<Path> forced = new ArrayList<>();
    for (Path folder : folders) {
      if (!next.contains(folder)) {
        LocalFolders.force(folder);
        forced.add(folder);
      }
    }
    forced.forEach(folders::remove);
  }

  /** Forces {@code folder} if it has unforced deletes. */
  synchronized void force(Path folder) throws IOException {
    if (folders.contains(folder)) {
      LocalFolders.force(folder);
      folders.remove(folder);
    }
  }

  /** Forces every unforced folder. */
  synchronized void forceAll() throws IOException {
    for (Path folder : new ArrayList<>(folders)) {
      LocalFolders.force(folder);
      folders.remove(folder);
    }
  }

  /** Notes folders whose entries changed without a force, or may have (a file already gone). */
  synchronized void add(Collection<Path> changed) {
    folders.addAll(changed);
  }

  /** A folder forced by the caller itself: its earlier deletes are durable now. */
  synchronized void forced(Path folder) {
    folders.remove(folder);
  }
}
