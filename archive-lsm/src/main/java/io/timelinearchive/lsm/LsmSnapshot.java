package io.timelinearchive.lsm;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.FileIterator;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The current snapshot of a history folder: the manifest {@code _version_} names, or, while {@code
 * _version_} is missing or empty, the manifest with the highest N; none at all when the folder
 * holds no manifest (the table has archived nothing yet).
 *
 * @param folder the history folder
 * @param manifest the current manifest, if any
 * @param fromVersionFile whether {@code _version_} named it (false: the highest manifest was taken)
 */
public record LsmSnapshot(
    StorageLocation folder, Optional<LsmManifest> manifest, boolean fromVersionFile) {

  public LsmSnapshot {
    requireNonNull(folder, "folder is null");
    requireNonNull(manifest, "manifest is null");
  }

  /**
   * Reads the current snapshot: {@code _version_}, then its manifest; one listing of the folder
   * only when {@code _version_} is missing or empty.
   *
   * @throws CorruptHistoryFileException naming the file if {@code _version_} or the manifest cannot
   *     be read, or {@code _version_} names a manifest that is missing
   * @throws IOException if the storage fails
   */
  public static LsmSnapshot current(MetaStorage storage, StorageLocation historyFolder)
      throws IOException {
    requireNonNull(storage, "storage is null");
    requireNonNull(historyFolder, "historyFolder is null");
    OptionalInt named = LsmVersionFile.read(storage, historyFolder);
    OptionalInt version = named.isPresent() ? named : highestManifest(storage, historyFolder);
    if (version.isEmpty()) {
      return new LsmSnapshot(historyFolder, Optional.empty(), false);
    }
    StorageLocation file = historyFolder.resolve(LsmManifest.fileName(version.getAsInt()));
    byte[] bytes;
    try {
      bytes = storage.read(file);
    } catch (NoSuchFileException e) {
      throw new CorruptHistoryFileException(
          LsmVersionFile.location(historyFolder),
          "it names manifest " + version.getAsInt() + ", but " + file + " does not exist",
          e);
    }
    return new LsmSnapshot(
        historyFolder,
        Optional.of(LsmManifest.parse(file, version.getAsInt(), bytes)),
        named.isPresent());
  }

  private static OptionalInt highestManifest(MetaStorage storage, StorageLocation folder)
      throws IOException {
    OptionalInt highest = OptionalInt.empty();
    FileIterator listing = storage.list(folder);
    while (listing.hasNext()) {
      FileEntry entry = listing.next();
      OptionalInt v = LsmManifest.version(entry.name());
      if (v.isPresent() && (highest.isEmpty() || v.getAsInt() > highest.getAsInt())) {
        highest = v;
      }
    }
    return highest;
  }

  /** The snapshot's version N, or empty if there is no manifest. */
  public OptionalInt version() {
    return manifest.map(m -> OptionalInt.of(m.version())).orElse(OptionalInt.empty());
  }

  /** The history files of the snapshot, as its manifest lists them; none without a manifest. */
  public List<LsmManifest.Entry> files() {
    return manifest.map(LsmManifest::files).orElse(List.of());
  }
}
