package io.timelinearchive.archive.folder;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.format.ArchiveFileName;
import io.timelinearchive.format.ArchiveMergePlan;
import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The archive folder as one listing saw it: its archive files by version, the highest generation of
 * the archive lock, and whether a merge plan is there. A run lists the folder once and passes this
 * along; readers, the lock, the writer, the merger and the history purge all take it from here.
 *
 * @param location the archive folder
 * @param archiveFiles the archive files, by version ascending (files of one version by name)
 * @param lockGeneration the highest {@code .timeline_archive.lock.N} listed, 0 for none
 * @param mergePlanListed whether Hudi's {@code mergeArchivePlan} was listed
 */
public record ArchiveFolder(
    StorageLocation location,
    List<FileEntry> archiveFiles,
    long lockGeneration,
    boolean mergePlanListed) {

  private static final Comparator<FileEntry> BY_VERSION =
      Comparator.comparingInt((FileEntry f) -> ArchiveFileName.version(f.name()).getAsInt())
          .thenComparing(FileEntry::name);

  public ArchiveFolder {
    requireNonNull(location, "location is null");
    archiveFiles = List.copyOf(archiveFiles);
  }

  /** Lists {@code folder} (one listing; a missing folder is an empty one). */
  public static ArchiveFolder list(MetaStorage storage, StorageLocation folder) throws IOException {
    return of(folder, storage.list(folder).toList());
  }

  /** The archive folder that {@code listing}, a listing of {@code folder}, shows. */
  public static ArchiveFolder of(StorageLocation folder, Collection<FileEntry> listing) {
    List<FileEntry> archiveFiles = new ArrayList<>();
    long lockGeneration = 0;
    boolean mergePlan = false;
    for (FileEntry file : listing) {
      if (ArchiveFileName.version(file.name()).isPresent()) {
        archiveFiles.add(file);
      }
      lockGeneration = Math.max(lockGeneration, ArchiveLock.generation(file.name()).orElse(0L));
      mergePlan |= file.name().equals(ArchiveMergePlan.FILE_NAME);
    }
    archiveFiles.sort(BY_VERSION);
    return new ArchiveFolder(folder, archiveFiles, lockGeneration, mergePlan);
  }

  /** The newest archive file, if any. */
  public Optional<FileEntry> newest() {
    return archiveFiles.isEmpty()
        ? Optional.empty()
        : Optional.of(archiveFiles.get(archiveFiles.size() - 1));
  }

  /** The highest version of any archive file, 0 for none. */
  public int newestVersion() {
    return newest().map(f -> version(f.name())).orElse(0);
  }

  /** This folder without the named archive files (those a merge plan says not to read). */
  public ArchiveFolder without(Collection<String> names) {
    return new ArchiveFolder(
        location,
        archiveFiles.stream().filter(f -> !names.contains(f.name())).toList(),
        lockGeneration,
        mergePlanListed);
  }

  /**
   * This folder after a run wrote {@code bytes} to the archive file {@code name} (appended to it,
   * or created it), which its listing does not show.
   */
  public ArchiveFolder withWritten(String name, long bytes, Instant when) {
    List<FileEntry> files = new ArrayList<>();
    boolean found = false;
    for (FileEntry f : archiveFiles) {
      if (f.name().equals(name)) {
        files.add(new FileEntry(f.location(), f.length() + bytes, when));
        found = true;
      } else {
        files.add(f);
      }
    }
    if (!found) {
      files.add(new FileEntry(location.resolve(name), bytes, when));
    }
    files.sort(BY_VERSION);
    return new ArchiveFolder(location, files, lockGeneration, mergePlanListed);
  }

  /** The version in an archive file's name. */
  public static int version(String archiveFileName) {
    return ArchiveFileName.version(archiveFileName)
        .orElseThrow(
            () -> new IllegalArgumentException("not an archive file name: " + archiveFileName));
  }
}
