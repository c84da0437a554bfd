package io.timelinearchive.it;

import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.util.List;

/** The instant files of an active timeline, as the end state backends are compared by. */
final class ActiveInstantFiles {
  private ActiveInstantFiles() {}

  /** The names of the instant files in {@code metaFolder} (not hoodie.properties or folders). */
  static List<String> in(MetaStorage storage, StorageLocation metaFolder) throws IOException {
    return storage.list(metaFolder).toList().stream()
        .map(FileEntry::name)
        .filter(n -> Character.isDigit(n.charAt(0)))
        .sorted()
        .toList();
  }
}
